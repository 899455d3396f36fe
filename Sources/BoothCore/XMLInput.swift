import Foundation

/// What FoundationXML's parser can be given without stopping the process. On Linux it traps on
/// an element, attribute or instruction name that is not UTF-8, and passes the missing data of
/// a processing instruction without any (`<?a?>`) to `strlen`. The fuzz target `bucket` found
/// both; the booth's XML readers (the store's answers, XMP sidecars) check their input here
/// first, and read what fails as malformed.
public enum XMLInput {
    /// Whether `data` is UTF-8 without a processing instruction that has no data. A document
    /// with `<?a?>` inside a comment is refused too, which no store or photo tool writes.
    public static func isSafe(_ data: Data) -> Bool {
        guard let text = String(validating: data, as: UTF8.self) else { return false }
        return text.firstMatch(of: /<\?[^\s?]*\?>/) == nil
    }
}
