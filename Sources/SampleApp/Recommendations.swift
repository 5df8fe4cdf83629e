/// The unread books most like the ones the user read last: each unread book's
/// words (title and tags) against each recent read's, by Jaccard
/// similarity; a book scores its best match.
///
/// Cost: one tokenization of the catalog, then one set comparison per unread
/// book and book of history, so it grows with catalog size × `historyCount`.
/// The slowed variant runs it on the main thread before the first frame.
///
/// ```swift
/// let picks = Recommendations(books).bookIDs  // best first
/// ```
struct Recommendations: Sendable, Equatable {
    /// How many of the most recently read books the ranking compares against.
    static let historyCount = 17
    /// How many recommendations are kept.
    static let keptCount = SampleData.firstPageCount

    /// The recommended books' ids, best first (ties go to the lower id).
    let bookIDs: [Int]

    init(_ books: [Book], historyCount: Int = Self.historyCount, keptCount: Int = Self.keptCount) {
        let terms = books.map(Self.terms(of:))
        let history = books.indices.filter { books[$0].isRead }.suffix(historyCount).map { terms[$0] }
        var scored: [(id: Int, score: Double)] = []
        scored.reserveCapacity(books.count)
        for (book, words) in zip(books, terms) where !book.isRead {
            var best = 0.0
            for read in history {
                best = max(best, Self.similarity(words, read))
            }
            scored.append((book.id, best))
        }
        scored.sort { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }
        bookIDs = scored.prefix(keptCount).map(\.id)
    }

    /// A book's distinct words, lowercased: its title's and its tags.
    static func terms(of book: Book) -> Set<Substring> {
        var terms = Set(book.title.lowercased().split(separator: " "))
        terms.formUnion(book.tags.map { Substring($0) })
        return terms
    }

    /// Jaccard similarity: shared words over all words of either, from 0 to 1.
    static func similarity(_ a: Set<Substring>, _ b: Set<Substring>) -> Double {
        let (small, large) = a.count <= b.count ? (a, b) : (b, a)
        var shared = 0
        for word in small where large.contains(word) { shared += 1 }
        let union = a.count + b.count - shared
        return union == 0 ? 0 : Double(shared) / Double(union)
    }
}
