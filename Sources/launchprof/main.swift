import LaunchTracing
let t = LaunchTracer.snapshot()
print(t.spawn as Any, t.runtimeInitNanoseconds, t.flushNanoseconds)
