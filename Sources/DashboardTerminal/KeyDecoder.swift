import CNcurses
import DashboardKit

/// What one `wget_wch` result means.
enum KeyInput: Equatable {
    case key(Key)
    /// ncurses noticed a resize (KEY_RESIZE).
    case resize
    /// A mouse event is waiting (KEY_MOUSE): `getmouse` reads it, ``KeyDecoder/mouse(state:x:y:)``
    /// decodes it.
    case mouse
    /// The terminal's suspend character (Ctrl-Z), which the screen takes from the terminal as
    /// a key (``TerminalScreen/suspendKey``): the backend suspends, as a shell's job.
    case suspend
    /// Nothing the dashboard uses (a function key, a control character).
    case ignored
}

/// Maps `wget_wch` results to keys.
enum KeyDecoder {
    /// Decodes a result of `wget_wch`: `isFunctionKey` when it returned KEY_CODE_YES; the
    /// character `suspendKey` (the terminal's suspend character, taken by the screen) suspends.
    static func decode(_ code: UInt32, isFunctionKey: Bool, suspendKey: UInt32?) -> KeyInput {
        if isFunctionKey { return functionKey(Int32(bitPattern: code)) }
        return code == suspendKey ? .suspend : character(code)
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
        case tf_key_mouse(): .mouse
        default: .ignored
        }
    }

    /// Decodes what `getmouse` read: the button state `state` at column `x`, row `y`. A press
    /// (or a click, from an ncurses that still resolves them) of the first button and the wheel
    /// become events; anything else (other buttons, a release) is nil.
    static func mouse(state: mmask_t, x: Int32, y: Int32) -> MouseEvent? {
        let action: MouseEvent.Action
        if state & (tf_button1_pressed() | tf_button1_clicked()) != 0 {
            action = .press
        } else if state & tf_wheel_up() != 0 {
            action = .wheelUp
        } else if state & tf_wheel_down() != 0 {
            action = .wheelDown
        } else {
            return nil
        }
        return MouseEvent(action, x: Int(x), y: Int(y))
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
