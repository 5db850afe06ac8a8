//! Which criterion a bench target was built with, read from the `Cargo.lock` its build used: criterion
//! before 0.4 takes `--warm-up-time` and `--measurement-time` in whole seconds only (0.3.6 parses them
//! as `u64` and refuses `0.1` with "Invalid value: The argument '0.1' isn't a valid value"), and its
//! profiling mode has no `Bencher::iter*` boundary that `--measure instructions` was measured on.
//!
//! The lock is read as text (`[[package]]` tables, `name` then `version`): cargo's lock format is stable in
//! that, and `cargo metadata` would resolve the whole graph again for two fields.
//!
//! Must not: start processes.

use std::path::Path;

/// The text of the `Cargo.lock` nearest `dir` (the package's directory, then its ancestors), if any.
pub(crate) fn lock_file(dir: &Path) -> Option<String> {
    dir.ancestors()
        .find_map(|d| std::fs::read_to_string(d.join("Cargo.lock")).ok())
}

/// The versions of the `criterion` packages a `Cargo.lock` holds, in the lock's order.
pub(crate) fn criterion_versions(lock: &str) -> Vec<String> {
    let mut versions = Vec::new();
    let mut in_criterion = false;
    for line in lock.lines().map(str::trim) {
        if line == "[[package]]" {
            in_criterion = false;
        } else if line == "name = \"criterion\"" {
            in_criterion = true;
        } else if let Some(version) = line.strip_prefix("version = \"").filter(|_| in_criterion) {
            versions.push(version.trim_end_matches('"').to_string());
            in_criterion = false;
        }
    }
    versions
}

/// Whether a criterion version is before 0.4 (0.1, 0.2, 0.3).
pub(crate) fn before_0_4(version: &str) -> bool {
    let mut parts = version.split('.').map(|p| p.parse::<u64>().unwrap_or(0));
    let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    major == 0 && minor < 4
}

/// The criterion version of the package in `package_dir` when it takes whole seconds only: every criterion
/// its lock holds is before 0.4 (the versions joined by ", "). `None` when the lock holds a later one (a
/// workspace that holds both is run with fractional seconds, and a target of the older one refuses them
/// with a message saying so), or holds none, or cannot be read.
pub(crate) fn whole_seconds_only(package_dir: &Path) -> Option<String> {
    let versions = criterion_versions(&lock_file(package_dir)?);
    (!versions.is_empty() && versions.iter().all(|v| before_0_4(v))).then(|| versions.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criterion_versions_are_read_from_a_lock_file_and_those_before_0_4_told_apart() {
        let lock = "version = 3\n\n[[package]]\nname = \"criterion\"\nversion = \"0.3.6\"\nsource = \"x\"\n\n\
                    [[package]]\nname = \"criterion-plot\"\nversion = \"0.4.5\"\n\n[[package]]\n\
                    name = \"criterion\"\nversion = \"0.5.1\"\n";
        assert_eq!(criterion_versions(lock), ["0.3.6", "0.5.1"]);
        assert!(before_0_4("0.3.6") && before_0_4("0.2.11"));
        assert!(!before_0_4("0.4.0") && !before_0_4("0.8.2") && !before_0_4("1.0.0"));
    }

    #[test]
    fn only_a_lock_whose_every_criterion_is_before_0_4_takes_whole_seconds() {
        let dir = tempfile::tempdir().unwrap();
        let package = dir.path().join("member");
        std::fs::create_dir_all(&package).unwrap();
        assert_eq!(whole_seconds_only(&package), None, "no lock");
        let lock = |versions: &[&str]| {
            versions
                .iter()
                .map(|v| format!("[[package]]\nname = \"criterion\"\nversion = \"{v}\"\n\n"))
                .collect::<String>()
        };
        // The workspace's lock, one directory up, as cargo keeps it.
        std::fs::write(dir.path().join("Cargo.lock"), lock(&["0.3.6"])).unwrap();
        assert_eq!(whole_seconds_only(&package).as_deref(), Some("0.3.6"));
        std::fs::write(dir.path().join("Cargo.lock"), lock(&["0.3.6", "0.5.1"])).unwrap();
        assert_eq!(
            whole_seconds_only(&package),
            None,
            "a later criterion beside it"
        );
        std::fs::write(dir.path().join("Cargo.lock"), lock(&[])).unwrap();
        assert_eq!(whole_seconds_only(&package), None, "no criterion");
    }
}
