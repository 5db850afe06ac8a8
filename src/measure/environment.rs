//! Gathers the environment fingerprint (`crate::model::fingerprint`) of a measuring command: the commits, the
//! settings of the runs, `rustc -vV`, the hash of `Cargo.lock` and the machine (CPU model, logical CPUs,
//! cpufreq governor; when instructions are counted, the CPU's flags and glibc's version too: `docs/json.md`
//! §2, "The fingerprint of counts"). Reading the system is this module's job; what the fields mean and
//! which of them merging compares lives in `crate::model::fingerprint`.
//!
//! Must not: fail a measurement for want of a field (an unreadable one is `None`).

use std::collections::BTreeMap;
use std::path::Path;

use super::cache::Machine;
use super::project::Project;
use super::settings::RunOptions;
use super::toolchain::rustc_version;
use crate::model::fingerprint::{Fingerprint, MachineInfo};
use crate::partition::fnv1a64;

/// The fingerprint of runs of `base` and `head` (commits; `None` for the working tree or a record's
/// absent BASE) made with `options`; `rustc` is `rustc -vV`'s output.
pub(super) fn gather(
    project: &Project,
    options: &RunOptions,
    base: Option<&str>,
    head: Option<&str>,
    rustc: &str,
) -> Fingerprint {
    let machine = Machine::detect();
    let counted = options.measure.counts();
    let unknown = || "unknown".to_string();
    Fingerprint {
        tool: Fingerprint::tool_version(),
        base_commit: base.map(str::to_string),
        head_commit: head.map(str::to_string),
        partition: options.partition.map(|p| p.to_string()),
        settings: settings(options),
        rustc: rustc.lines().next().map(str::to_string),
        cargo_lock: cargo_lock(project, head),
        machine: MachineInfo {
            cpu: match counted {
                true => Some(machine.cpu.unwrap_or_else(unknown)),
                false => machine.cpu,
            },
            cores: std::thread::available_parallelism()
                .ok()
                .and_then(|n| u32::try_from(n.get()).ok()),
            governor: std::fs::read_to_string(
                "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor",
            )
            .ok()
            .map(|g| g.trim().to_string())
            .filter(|g| !g.is_empty()),
            cpu_flags: counted.then(|| cpu_flags().unwrap_or_else(unknown)),
            glibc: counted.then(|| glibc_version().unwrap_or_else(unknown)),
        },
    }
}

/// The `flags` line of `/proc/cpuinfo` (its first processor's), as listed; `None` where there is none.
fn cpu_flags() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    flags_of(&text)
}

/// The value of the first `flags` line of a `/proc/cpuinfo` text, its spaces collapsed.
fn flags_of(cpuinfo: &str) -> Option<String> {
    cpuinfo
        .lines()
        .find(|l| l.split(':').next().is_some_and(|key| key.trim() == "flags"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|v| !v.is_empty())
}

/// The version of the glibc this process runs with (`2.36`), which is the one the benchmarks load: both are
/// dynamically linked executables of this machine's default target. Asked of glibc itself
/// (`gnu_get_libc_version`) rather than read from `ldd --version`, whose first line each distribution words
/// its own way (`ldd (Debian GLIBC 2.36-9+deb12u4) 2.36`, `ldd (GNU libc) 2.39`) and which musl's `ldd`
/// answers on standard error with a failure. `None` off glibc (musl, macOS, Windows).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn glibc_version() -> Option<String> {
    // SAFETY: `gnu_get_libc_version` takes nothing and returns a pointer to a static NUL-terminated string.
    let version = unsafe { std::ffi::CStr::from_ptr(libc::gnu_get_libc_version()) };
    Some(version.to_string_lossy().trim().to_string()).filter(|v| !v.is_empty())
}

/// Off glibc there is no glibc version.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn glibc_version() -> Option<String> {
    None
}

/// The settings that decide what a run measures; the seed (only the order of runs) is left out.
fn settings(options: &RunOptions) -> BTreeMap<String, String> {
    [
        ("package", options.package.clone().unwrap_or_default()),
        ("bench", options.benches.join(",")),
        // `--all-features` as given: the two never come together.
        (
            "features",
            match options.all_features {
                true => "--all-features".to_string(),
                false => options.features.clone().unwrap_or_default(),
            },
        ),
        ("filter", options.filter.clone().unwrap_or_default()),
        ("looks", options.look_plan.looks_text()),
        ("warm-up-time", options.warm_up_secs.to_string()),
        ("measurement-time", options.measurement_secs.to_string()),
        ("sample-size", options.sample_size.to_string()),
        ("layouts", options.layouts.to_string()),
        ("run-identical", options.run_identical.to_string()),
        ("bench-settings", options.bench_settings_key().to_string()),
    ]
    .into_iter()
    // A forced harness is another experiment; none forced leaves the settings (and keys) as before.
    .chain(options.harness.map(|h| ("harness", h.name().to_string())))
    // Pinned runs likewise; unpinned ones leave the settings as they were before `--pin`.
    .chain(options.pin.then(|| ("pin", "last-core".to_string())))
    // Counts likewise (`instructions`, or `time,instructions` for both in one comparison): times leave the
    // settings as they were before `--measure`.
    .chain(
        (options.measure != super::settings::Measure::Time)
            .then(|| ("measure", options.measure.name().to_string())),
    )
    // Duet runs likewise: another experiment, recorded only when chosen.
    .chain(options.duet.then(|| ("duet", "last-two-cores".to_string())))
    // Counts beside instructions likewise, each only when asked.
    .chain(options.cache_sim.then(|| ("cache-sim", "yes".to_string())))
    .chain(
        options
            .count_allocations
            .then(|| ("count-allocations", "yes".to_string())),
    )
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// FNV-1a-64 of the `Cargo.lock` nearest the manifest (its text, trimmed), at commit `head` or in the
/// working tree.
fn cargo_lock(project: &Project, head: Option<&str>) -> Option<String> {
    let manifest_dir = project.manifest.parent().unwrap_or(Path::new(""));
    for dir in manifest_dir.ancestors() {
        let relative = dir.join("Cargo.lock");
        let text = match (head, project.git()) {
            (Some(sha), Ok(git)) => git
                .output(&["show", &format!("{sha}:{}", relative.to_string_lossy())])
                .ok(),
            _ => std::fs::read_to_string(project.root.join(&relative))
                .ok()
                .map(|t| t.trim().to_string()),
        };
        if let Some(text) = text {
            return Some(format!("{:016x}", fnv1a64(text.as_bytes())));
        }
    }
    None
}

/// The machine and toolchain the runs of `dir` were measured on, as the results record them.
pub(crate) fn environment(dir: &Path) -> crate::model::Environment {
    let machine = Machine::detect();
    let rustc = rustc_version(dir).lines().next().map(str::to_string);
    crate::model::Environment {
        cpu: machine.cpu,
        rustc,
        host: machine.host,
        fingerprint: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flags_are_the_first_processors_flags_line() {
        let cpuinfo = "processor\t: 0\nmodel name\t: AMD EPYC 7B13\nflags\t\t: fpu  vme sse2 avx2\n\
                       vmx flags\t: vnmi\n\nprocessor\t: 1\nflags\t\t: fpu\n";
        assert_eq!(flags_of(cpuinfo).as_deref(), Some("fpu vme sse2 avx2"));
        assert_eq!(flags_of("model name\t: Apple M2\n"), None);
        assert_eq!(flags_of("flags\t:\n"), None);
    }

    #[test]
    fn the_settings_record_what_was_measured_times_alone_as_before() {
        let args = crate::cli::RunArgs::default();
        let options = |measure: Option<&str>| {
            let run = crate::plan::run_options(&args, false, None).unwrap();
            crate::plan::measuring(run, measure, &args).unwrap()
        };
        assert_eq!(settings(&options(None)).get("measure"), None);
        assert_eq!(settings(&options(Some("time"))).get("measure"), None);
        for (measure, recorded) in [
            ("instructions", "instructions"),
            ("time,instructions", "time,instructions"),
            ("instructions,time", "time,instructions"),
        ] {
            assert_eq!(
                settings(&options(Some(measure)))
                    .get("measure")
                    .map(String::as_str),
                Some(recorded)
            );
            assert!(options(Some(measure)).measure.counts(), "{measure}");
        }
        // Both in one comparison: the times' plan, as `--measure time` records it.
        let both = settings(&options(Some("time,instructions")));
        let times = settings(&options(None));
        assert_eq!(both.get("looks"), times.get("looks"));
        assert_eq!(both.get("layouts"), times.get("layouts"));
    }

    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn glibc_says_its_version() {
        let version = glibc_version().unwrap();
        let mut parts = version.split('.');
        assert_eq!(parts.next(), Some("2"), "{version}");
        assert!(
            parts
                .next()
                .is_some_and(|minor| minor.parse::<u32>().is_ok()),
            "{version}"
        );
    }
}
