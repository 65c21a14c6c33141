/// A job store's listing as it travels (filled in once the store types live in the core).
package struct WireStoreListing: Codable, Sendable {}
