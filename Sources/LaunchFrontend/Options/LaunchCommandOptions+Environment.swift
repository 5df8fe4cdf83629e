import LaunchAnalysis
import LaunchTracing

extension LaunchCommandOptions {
    /// Checks LaunchProf's own variables in the environment that every launch
    /// inherits (``LaunchContract/HarnessSetting``, and `LAUNCHPROF_LAUNCH_OPTIONS`
    /// unless `--launch-option` replaces it) before any launch: a value the harness
    /// refuses would fail every launch and leave a report of no runs in place of the
    /// last one.
    static func checkInheritedSettings(launchOptionsGiven: Bool) throws {
        let inherited = "in the environment, which every launch inherits"
        for setting in LaunchContract.HarnessSetting.all {
            if let value = ProcessEnvironment.value(setting.name), !setting.accepts(value) {
                throw UsageError(
                    "\(setting.name)='\(ControlCharacters.escaped(value))' \(inherited): expected \(setting.expected)")
            }
        }
        let name = LaunchContract.Variable.launchOptions
        if !launchOptionsGiven, let json = ProcessEnvironment.value(name), !json.isEmpty {
            do { _ = try LaunchOptions(json: json) } catch {
                throw UsageError("\(name) \(inherited): \(ControlCharacters.escaped("\(error)"))")
            }
        }
    }
}
