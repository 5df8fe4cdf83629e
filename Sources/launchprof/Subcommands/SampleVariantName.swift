/// The sample's variant names, as the CLI accepts them.
enum SampleVariantName {
    static let all = ["naive", "optimized"]
}
