import Glibc

/// Facts about the machine the process runs on.
public enum System {
    public static var coreCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
