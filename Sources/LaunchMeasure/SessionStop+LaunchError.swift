import LaunchAnalysis

// The stops a session makes, from the errors LaunchMeasure has.
extension SessionStop {
    /// `launch` could not be started after others were measured.
    package static func couldNotStart(_ launch: Launch, _ error: LaunchError) -> SessionStop {
        SessionStop(.couldNotStart, launch: launch, detail: error.description)
    }

    /// Warm-up `number` failed with `problem`.
    package static func warmupFailed(_ number: Int, problem: String) -> SessionStop {
        SessionStop(.warmupFailed, launch: .warmup(number), detail: problem)
    }

    /// `--prepare` failed before `launch`.
    package static func prepareFailed(_ failure: LaunchError, before launch: Launch) -> SessionStop {
        SessionStop(.prepareFailed, launch: launch, detail: failure.description)
    }

    /// `--cleanup` failed at the end.
    package static func cleanupFailed(_ failure: LaunchError) -> SessionStop {
        SessionStop(.cleanupFailed, detail: failure.description)
    }

    /// The program could not be made ready to count (``InstructionCounter/prepare(program:in:)``).
    package static func cannotCount(_ error: LaunchError) -> SessionStop {
        SessionStop(.cannotCount, detail: error.description)
    }
}
