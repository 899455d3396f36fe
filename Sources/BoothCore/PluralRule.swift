/// The forms a language gives a counted word, by the names the Unicode CLDR gives them: English
/// has `one` ("1 photo") and `other` ("2 photos"); Polish would add `few` and `many`.
package enum PluralCategory: String, CaseIterable, Sendable, Hashable {
    case zero, one, two, few, many, other
}

/// Which plural form a language gives a number of things.
package struct PluralRule: Sendable {
    private let category: @Sendable (Int) -> PluralCategory

    /// A rule that names `category(n)` for `n` things.
    package init(_ category: @escaping @Sendable (Int) -> PluralCategory) {
        self.category = category
    }

    /// The form for `count` things.
    public func callAsFunction(_ count: Int) -> PluralCategory {
        category(count)
    }

    /// One thing is singular, any other number (0 too) plural: English, German.
    package static let oneIsSingular = PluralRule { $0 == 1 ? .one : .other }

    /// None and one thing are singular, from two plural: French ("0 photo", "1 photo", "2 photos").
    package static let zeroAndOneAreSingular = PluralRule { $0 == 0 || $0 == 1 ? .one : .other }
}
