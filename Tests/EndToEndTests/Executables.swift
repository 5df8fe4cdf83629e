import _LaunchProfTestSupport

/// The end-to-end tests call the built products `Executables`.
typealias Executables = BuiltProducts
