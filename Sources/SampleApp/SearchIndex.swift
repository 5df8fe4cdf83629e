import LaunchTracing

/// An inverted index from words of titles and summaries to book ids. The first
/// screen does not need it: search comes later.
struct SearchIndex: Sendable, Equatable {
    private(set) var postings: [Substring: [Int]] = [:]

    init(_ books: [Book]) {
        let span = LaunchTracer.begin("BuildSearchIndex", category: .compute)
        defer { span.end() }
        for book in books {
            for text in [book.title, book.summary] {
                for word in text.lowercased().split(separator: " ") {
                    postings[word, default: []].append(book.id)
                }
            }
        }
    }

    var termCount: Int { postings.count }
    var postingCount: Int { postings.values.reduce(0) { $0 + $1.count } }
}
