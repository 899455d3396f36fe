/// Metrics in Prometheus' text exposition format (version 0.0.4), written one family at a time:
/// its `# HELP` and `# TYPE` lines, then its samples.
///
/// Every part of the booth that has figures for `/metrics` (the booth itself, the event sync,
/// the web gallery, the library) adds its families to one `PrometheusText`, so the escaping and
/// number formatting are the same everywhere and the exposition stays valid: label values escape
/// `\`, `"` and line breaks, help texts `\` and line breaks, and numbers are written as
/// Prometheus reads them (`+Inf`, `NaN`, whole numbers without a fraction).
///
/// ```swift
/// var text = PrometheusText()
/// text.add("photobooth_photos_taken_total", .counter, help: "Photos saved since the booth started.", value: 42)
/// text.add(
///     "photobooth_web_streams", .gauge, help: "Live streams open now.",
///     samples: [.init(labels: ["stream": "preview"], value: 1)])
/// ```
package struct PrometheusText: Sendable, CustomStringConvertible {
    /// What a family measures, as its `# TYPE` line says.
    package enum MetricType: String, Sendable {
        case counter, gauge, histogram
    }

    /// One line of a family: its labels and value, and the suffix a histogram's lines add to
    /// the family's name (`_bucket`, `_sum`, `_count`).
    package struct Sample: Sendable {
        package var suffix: String
        /// Label names and values, in the order they are written.
        package var labels: KeyValuePairs<String, String>
        package var value: Double

        package init(suffix: String = "", labels: KeyValuePairs<String, String> = [:], value: Double) {
            self.suffix = suffix
            self.labels = labels
            self.value = value
        }

        package init(suffix: String = "", labels: KeyValuePairs<String, String> = [:], value: some BinaryInteger) {
            self.init(suffix: suffix, labels: labels, value: Double(value))
        }
    }

    /// The text so far.
    package private(set) var description = ""
    /// The families written so far: a name may appear only once in an exposition.
    private var families: Set<String> = []

    package init() {}

    /// Adds the family `name` with its samples. Names are the program's own, not data: a name
    /// that is not a valid metric name, or a family added twice, is a programming error.
    package mutating func add(_ name: String, _ type: MetricType, help: String, samples: [Sample]) {
        precondition(Self.isValidName(name, allowingColons: true), "\(name) is not a valid metric name")
        let (inserted, _) = families.insert(name)
        precondition(inserted, "the metric family \(name) is written twice")
        description += "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) \(type.rawValue)\n"
        for sample in samples {
            description += name + sample.suffix
            if !sample.labels.isEmpty {
                let labels = sample.labels.map { label, value in
                    precondition(Self.isValidName(label, allowingColons: false), "\(label) is not a valid label name")
                    return "\(label)=\"\(Self.escapedLabelValue(value))\""
                }
                description += "{" + labels.joined(separator: ",") + "}"
            }
            description += " " + Self.number(sample.value) + "\n"
        }
    }

    /// Adds the family `name` with one sample without labels.
    package mutating func add(_ name: String, _ type: MetricType, help: String, value: Double) {
        add(name, type, help: help, samples: [Sample(value: value)])
    }

    /// Adds the family `name` with one sample without labels.
    package mutating func add(_ name: String, _ type: MetricType, help: String, value: some BinaryInteger) {
        add(name, type, help: help, samples: [Sample(value: value)])
    }

    /// Adds the histogram `name`: the cumulative count of observations at or below each upper
    /// bound (`_bucket{le="..."}`, then `le="+Inf"`, which is `count`), their sum and count.
    package mutating func addHistogram(
        _ name: String, help: String, buckets: [(upperBound: Double, count: Int)], sum: Double, count: Int
    ) {
        var samples = buckets.map { bucket in
            Sample(suffix: "_bucket", labels: ["le": Self.number(bucket.upperBound)], value: bucket.count)
        }
        samples.append(Sample(suffix: "_bucket", labels: ["le": "+Inf"], value: count))
        samples.append(Sample(suffix: "_sum", value: sum))
        samples.append(Sample(suffix: "_count", value: count))
        add(name, .histogram, help: help, samples: samples)
    }

    /// Adds every family of `other` after those already here.
    package mutating func append(_ other: PrometheusText) {
        for family in other.families {
            let (inserted, _) = families.insert(family)
            precondition(inserted, "the metric family \(family) is written twice")
        }
        description += other.description
    }

    /// A number as Prometheus reads it: `+Inf`, `-Inf`, `NaN`, a whole number without a
    /// fraction (`3600`), anything else in Swift's shortest exact form (`0.025`, `1e-05`).
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Inf" : "+Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A label value with `\`, `"` and line breaks escaped.
    static func escapedLabelValue(_ value: String) -> String {
        var escaped = ""
        for character in value.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// A help text with `\` and line breaks escaped.
    static func escapedHelp(_ help: String) -> String {
        var escaped = ""
        for character in help.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// Whether `name` is a metric name (`[a-zA-Z_:][a-zA-Z0-9_:]*`) or, without colons, a
    /// label name.
    static func isValidName(_ name: String, allowingColons: Bool) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        func isLetter(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || (allowingColons && scalar == ":")
        }
        return isLetter(first) && name.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) }
    }
}
