//! The environment fingerprint a measuring command writes into every JSON report and record file: what
//! must agree for parts of one comparison to be merged (the commits compared, the tool, the settings that
//! decide what a run measures) and what may differ and is shown (the machine). `docs/sharding.md` §2.
//!
//! `measure` gathers it (the only module that reads the system); this module holds the data, the wire
//! form shared by the JSON report (`docs/json.md`) and the record file (`docs/formats.md` §7), and the pure
//! rule [`Fingerprint::mismatch`] that `model::merge` applies. Must not: read files or run processes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The machine a part ran on: shown, allowed to differ between parts.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(default)]
pub struct MachineInfo {
    /// CPU model (`/proc/cpuinfo` "model name").
    pub cpu: Option<String>,
    /// Logical CPUs this process may use.
    pub cores: Option<u32>,
    /// The cpufreq scaling governor of CPU 0, when readable.
    pub governor: Option<String>,
    /// The CPU's flags (`/proc/cpuinfo` "flags", as listed, `fpu vme ... avx2 ...`), recorded when
    /// instructions are counted, `unknown` where unreadable; absent for times. glibc chooses its `memcpy`
    /// and string routines by them, so they are part of a count (`docs/json.md` §2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu_flags: Option<String>,
    /// The version of the C library the benchmarks load (`2.36`, from glibc's `gnu_get_libc_version`),
    /// recorded when instructions are counted, `unknown` where there is no glibc; absent for times.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub glibc: Option<String>,
}

/// What determined a part's results.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Fingerprint {
    /// `cargo-speedup 0.1.0`.
    pub tool: String,
    /// BASE's commit; `None` for a record (one side) or the working tree.
    pub base_commit: Option<String>,
    /// HEAD's commit (a record's: the working tree's `HEAD`); `None` for the working tree of a comparison.
    pub head_commit: Option<String>,
    /// `--partition` as given (`count:1/3`), `None` for the whole suite.
    pub partition: Option<String>,
    /// The settings of the runs (criterion's times and sample size, runs, layouts, filter, package, ...),
    /// by name.
    pub settings: BTreeMap<String, String>,
    /// `rustc -vV`'s first line.
    pub rustc: Option<String>,
    /// FNV-1a-64 of `Cargo.lock` (HEAD's), as 16 hex digits; `None` without a lock file.
    pub cargo_lock: Option<String>,
    /// The machine the runs ran on: shown, allowed to differ between parts.
    pub machine: MachineInfo,
}

impl Fingerprint {
    /// This tool's name and version, as the fingerprint names it.
    pub fn tool_version() -> String {
        format!("cargo-speedup {}", env!("CARGO_PKG_VERSION"))
    }

    /// The first thing two parts of one comparison disagree on (besides the machine and the partition,
    /// which may differ), as `(what, this part's value, the other's)`.
    pub fn mismatch(&self, other: &Fingerprint) -> Option<(String, String, String)> {
        let text = |v: &Option<String>| v.clone().unwrap_or_else(|| "none".into());
        let fields = [
            (
                "BASE commit",
                text(&self.base_commit),
                text(&other.base_commit),
            ),
            (
                "HEAD commit",
                text(&self.head_commit),
                text(&other.head_commit),
            ),
            (
                "cargo-speedup version",
                self.tool.clone(),
                other.tool.clone(),
            ),
            ("rustc", text(&self.rustc), text(&other.rustc)),
            (
                "Cargo.lock",
                text(&self.cargo_lock),
                text(&other.cargo_lock),
            ),
        ];
        if let Some((what, a, b)) = fields.into_iter().find(|(_, a, b)| a != b) {
            return Some((what.to_string(), a, b));
        }
        let keys: std::collections::BTreeSet<&String> =
            self.settings.keys().chain(other.settings.keys()).collect();
        keys.into_iter().find_map(|key| {
            let (a, b) = (self.settings.get(key), other.settings.get(key));
            (a != b).then(|| {
                let value = |v: Option<&String>| v.cloned().unwrap_or_else(|| "none".into());
                (format!("setting `{key}`"), value(a), value(b))
            })
        })
    }

    /// The fingerprint of a comparison of two sides each measured with its own (two `record` files): HEAD's,
    /// with BASE's commit taken from BASE's; either alone when the other is unknown.
    pub fn of_comparison(
        base: Option<&Fingerprint>,
        head: Option<&Fingerprint>,
    ) -> Option<Fingerprint> {
        match (base, head) {
            (Some(base), Some(head))
                if head.base_commit.is_none() && base.base_commit.is_none() =>
            {
                Some(Fingerprint {
                    base_commit: base.head_commit.clone(),
                    ..head.clone()
                })
            }
            (_, Some(head)) => Some(head.clone()),
            (Some(base), None) => Some(base.clone()),
            (None, None) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fingerprint() -> Fingerprint {
        Fingerprint {
            tool: "cargo-speedup 0.1.0".into(),
            base_commit: Some("aaa".into()),
            head_commit: Some("bbb".into()),
            partition: Some("count:1/2".into()),
            settings: [("sample-size", "10"), ("runs", "5")]
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .into(),
            rustc: Some("rustc 1.85.0".into()),
            cargo_lock: Some("0123456789abcdef".into()),
            machine: MachineInfo {
                cpu: Some("AMD EPYC 7B13".into()),
                cores: Some(2),
                ..Default::default()
            },
        }
    }

    #[test]
    fn machine_and_partition_may_differ() {
        let other = Fingerprint {
            partition: Some("count:2/2".into()),
            machine: MachineInfo::default(),
            ..fingerprint()
        };
        assert_eq!(fingerprint().mismatch(&other), None);
    }

    #[test]
    fn commits_versions_and_settings_may_not() {
        let head = Fingerprint {
            head_commit: Some("ccc".into()),
            ..fingerprint()
        };
        assert_eq!(
            fingerprint().mismatch(&head),
            Some(("HEAD commit".into(), "bbb".into(), "ccc".into()))
        );
        let mut settings = fingerprint();
        settings.settings.insert("filter".into(), "parse".into());
        assert_eq!(
            fingerprint().mismatch(&settings),
            Some(("setting `filter`".into(), "none".into(), "parse".into()))
        );
        let lock = Fingerprint {
            cargo_lock: None,
            ..fingerprint()
        };
        assert_eq!(
            fingerprint().mismatch(&lock).map(|m| m.0),
            Some("Cargo.lock".to_string())
        );
    }

    #[test]
    fn two_records_make_one_comparison() {
        let record = |commit: &str| Fingerprint {
            base_commit: None,
            head_commit: Some(commit.into()),
            ..fingerprint()
        };
        let both = Fingerprint::of_comparison(Some(&record("aaa")), Some(&record("bbb"))).unwrap();
        assert_eq!(
            (both.base_commit.as_deref(), both.head_commit.as_deref()),
            (Some("aaa"), Some("bbb"))
        );
        assert_eq!(Fingerprint::of_comparison(None, None), None);
    }
}
