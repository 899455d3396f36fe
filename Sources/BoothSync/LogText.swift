/// Text from outside (object keys, a store's messages, a booth's name in a record) as it goes
/// into a log line: whatever it holds, it stays on its line and reads back as what it was.
/// A key with a line break in it must not write a second, forged line into every booth's log.
enum LogText {
    /// `text` with `\`, line breaks, tabs, other control characters, the bidirectional
    /// controls (which reorder what follows on the line) and every scalar that is not
    /// printable written as escapes (`\n`, `\u{202E}`).
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                let properties = scalar.properties
                switch properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                    result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                default:
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// `text` escaped, in double quotes (a `"` inside escaped too): "gala/booth-1/records/x.xmp".
    static func quoted(_ text: String) -> String {
        "\"" + escaped(text).replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
