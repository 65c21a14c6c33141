import CNcurses
import DashboardKit

/// What one `wget_wch` result means.
enum KeyInput: Equatable {
    case key(Key)
    /// ncurses noticed a resize (KEY_RESIZE).
    case resize
    /// Nothing the dashboard uses (a function key, a control character).
    case ignored
}

/// Maps `wget_wch` results to keys.
enum KeyDecoder {
    /// Decodes a result of `wget_wch`: `isFunctionKey` when it returned KEY_CODE_YES.
    static func decode(_ code: UInt32, isFunctionKey: Bool) -> KeyInput {
        isFunctionKey ? functionKey(Int32(bitPattern: code)) : character(code)
    }

    private static func functionKey(_ code: Int32) -> KeyInput {
        switch code {
        case tf_key_up(): .key(.up)
        case tf_key_down(): .key(.down)
        case tf_key_left(): .key(.left)
        case tf_key_right(): .key(.right)
        case tf_key_ppage(): .key(.pageUp)
        case tf_key_npage(): .key(.pageDown)
        case tf_key_home(): .key(.home)
        case tf_key_end(): .key(.end)
        case tf_key_enter(): .key(.enter)
        case tf_key_backspace(): .key(.backspace)
        case tf_key_resize(): .resize
        default: .ignored
        }
    }

    private static func character(_ code: UInt32) -> KeyInput {
        switch code {
        case 9: .key(.tab)
        case 10, 13: .key(.enter)
        case 27: .key(.escape)
        case 8, 127: .key(.backspace)
        case 0..<32: .ignored
        default: Unicode.Scalar(code).map { .key(.character(Character($0))) } ?? .ignored
        }
    }
}
