import LaunchMeasure
import Testing

/// Each message is what `launchprof: <message>` prints on stderr: one line, naming the value.
@Suite("LaunchError")
struct LaunchErrorTests {
    @Test(
        "descriptions are one lowercase line naming the value",
        arguments: [
            (LaunchError.programNotFound("frobnicate", searchedPATH: true), "'frobnicate' (not found in PATH)"),
            (.programNotFound("./frobnicate", searchedPATH: false), "'./frobnicate'"),
            (.notExecutable(path: "/tmp/plain"), "'/tmp/plain' is not executable"),
            (.notAProgram(path: "/tmp", isDirectory: true), "'/tmp' is a directory"),
            (.notAProgram(path: "/dev/null", isDirectory: false), "'/dev/null' is not a program"),
            (.badSetting(name: "timeout", value: -1, expected: "a positive number of seconds"), "timeout -1"),
            (.badEnvironmentName("A=B"), "'A=B'"),
            (.cannotCreate(path: "/proc/nope", code: 2), "'/proc/nope': no such file or directory"),
            (.systemCallFailed(name: "pipe", code: 24), "pipe failed: too many open files"),
            (.spawnFailed(path: "/tmp/garbage", code: 8), "'/tmp/garbage': exec format error"),
            (.waitFailed(processID: 4242, code: 10), "process 4242: no child processes"),
            (.coldModeNeedsRoot(path: "/proc/sys/vm/drop_caches", code: 30), "'/proc/sys/vm/drop_caches'"),
            (.cannotDropCaches(path: "/proc/sys/vm/drop_caches", code: 2), "'/proc/sys/vm/drop_caches'"),
            (
                .notTheFolderMade(path: "/r/app.runs.tmp-7"),
                "'/r/app.runs.tmp-7' is no longer the runs folder launchprof made"
            ),
        ])
    func description(error: LaunchError, names value: String) {
        let message = error.description
        #expect(message.contains(value))
        #expect(!message.contains("\n"))
        #expect(message.first(where: \.isLetter)?.isLowercase == true)
    }

    @Test("an empty program name says none was given")
    func emptyProgram() {
        #expect(LaunchError.programNotFound("", searchedPATH: false).description == "no program given")
    }
}
