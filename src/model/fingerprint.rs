//! The environment fingerprint a measuring command writes into every JSON report and record file: what
//! must agree for parts of one comparison to be merged (the commits compared, the tool, the settings that
//! decide what a run measures) and what may differ and is shown (the machine). `docs/sharding.md` §2.
//!
//! `measure` gathers it (the only module that reads the system); this module holds the data, the wire
//! form shared by the JSON report (`docs/json.md`) and the record file (`docs/formats.md` §7), and the pure
//! rules that `model::merge` and `compare` apply: [`Fingerprint::mismatch`] (one comparison) and
//! [`CountsMismatch::between`] (instruction counts of one machine). Must not: read files or run processes.

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

/// What an instruction count depends on besides the code (`docs/json.md` §2, "The fingerprint of counts"):
/// glibc chooses its string routines by the CPU, and Valgrind is the counter. Each member is as recorded,
/// `unknown` where the system did not say, `not recorded` where the fingerprint has no such member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CountedOn {
    /// The CPU model, `AMD EPYC 7B13`.
    pub cpu: String,
    /// The CPU's flags, space-separated.
    pub cpu_flags: String,
    /// glibc's version, `2.36`.
    pub glibc: String,
    /// Valgrind's version line, `valgrind-3.19.0`.
    pub valgrind: String,
}

impl Fingerprint {
    /// Whether the runs were instruction counts (the setting `measure = instructions`), alone or beside times
    /// (`measure = time,instructions`).
    pub fn counts(&self) -> bool {
        self.settings
            .get("measure")
            .is_some_and(|m| m.split(',').any(|word| word == "instructions"))
    }

    /// The machine the counts were made on; `None` for times.
    pub fn counted_on(&self) -> Option<CountedOn> {
        let said = |v: Option<&String>| v.cloned().unwrap_or_else(|| "not recorded".into());
        self.counts().then(|| CountedOn {
            cpu: said(self.machine.cpu.as_ref()),
            cpu_flags: said(self.machine.cpu_flags.as_ref()),
            glibc: said(self.machine.glibc.as_ref()),
            valgrind: said(self.settings.get("valgrind")),
        })
    }
}

/// Instruction counts of two machines given as one comparison or merge: the two fingerprints differ in the
/// CPU model, its flags, glibc's or Valgrind's version. Refused (exit status 2): glibc picks `memcpy` and
/// the string routines by the CPU (IFUNC), so the same executable counts differently on two CPU models.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{first} was counted on {first_machine}, {second} on {second_machine}: {difference}; counts of two \
     machines are not comparable\nhint: measure both on one machine, or pin the runner image (e.g. \
     `runs-on: ubuntu-24.04`, not `ubuntu-latest`) so that every job counts on the same glibc and Valgrind"
)]
pub struct CountsMismatch {
    /// The first side or part, `BASE` or a file's name.
    pub first: String,
    /// Its machine in words: `AMD EPYC 7B13 with glibc 2.36 and valgrind-3.19.0`.
    pub first_machine: String,
    /// The other side or part.
    pub second: String,
    /// Its machine in words.
    pub second_machine: String,
    /// What differs: `the CPU model`, `the CPU flags (avx512f only at BASE)`, `glibc`, `Valgrind`.
    pub difference: String,
}

impl CountsMismatch {
    /// The refusal of the counts of `first` and `second` (a name and its fingerprint each), when both are
    /// counts and their machines differ; `None` when either is not counts (times, or a foreign file without
    /// fingerprint) or they agree.
    pub fn between(
        first: (&str, &Fingerprint),
        second: (&str, &Fingerprint),
    ) -> Option<CountsMismatch> {
        let (a, b) = (first.1.counted_on()?, second.1.counted_on()?);
        let difference = if a.cpu != b.cpu {
            "the CPU model differs".to_string()
        } else if a.cpu_flags != b.cpu_flags {
            format!(
                "the CPU flags differ ({})",
                flags_difference(&a, &b, first.0, second.0)
            )
        } else if a.glibc != b.glibc {
            "glibc differs".to_string()
        } else if a.valgrind != b.valgrind {
            "Valgrind differs".to_string()
        } else {
            return None;
        };
        let machine =
            |c: &CountedOn| format!("{} with glibc {} and {}", c.cpu, c.glibc, c.valgrind);
        Some(CountsMismatch {
            first: first.0.to_string(),
            first_machine: machine(&a),
            second: second.0.to_string(),
            second_machine: machine(&b),
            difference,
        })
    }
}

/// The flags one side has and the other lacks, at most a few of each, as `avx512f avx512bw only at BASE;
/// sha_ni only at HEAD`.
fn flags_difference(a: &CountedOn, b: &CountedOn, a_name: &str, b_name: &str) -> String {
    const SHOWN: usize = 6;
    for (c, name) in [(a, a_name), (b, b_name)] {
        if c.cpu_flags == "not recorded" {
            return format!("not recorded at {name}");
        }
    }
    let set = |c: &CountedOn| -> std::collections::BTreeSet<String> {
        c.cpu_flags.split_whitespace().map(str::to_string).collect()
    };
    let (sa, sb) = (set(a), set(b));
    let only = |x: &std::collections::BTreeSet<String>,
                y: &std::collections::BTreeSet<String>,
                name: &str| {
        let flags: Vec<&String> = x.difference(y).collect();
        (!flags.is_empty()).then(|| {
            let more = match flags.len() > SHOWN {
                true => format!(" and {} more", flags.len() - SHOWN),
                false => String::new(),
            };
            let listed: Vec<&str> = flags.iter().take(SHOWN).map(|f| f.as_str()).collect();
            format!("{}{more} only at {name}", listed.join(" "))
        })
    };
    let parts: Vec<String> = [only(&sa, &sb, a_name), only(&sb, &sa, b_name)]
        .into_iter()
        .flatten()
        .collect();
    match parts.is_empty() {
        true => "listed in another order".to_string(),
        false => parts.join("; "),
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

    fn counted(cpu: &str, flags: &str, glibc: &str, valgrind: &str) -> Fingerprint {
        let mut print = fingerprint();
        print
            .settings
            .insert("measure".into(), "instructions".into());
        print.settings.insert("valgrind".into(), valgrind.into());
        print.machine = MachineInfo {
            cpu: Some(cpu.into()),
            cpu_flags: Some(flags.into()),
            glibc: Some(glibc.into()),
            ..Default::default()
        };
        print
    }

    #[test]
    fn counts_of_one_machine_agree_and_times_are_never_refused() {
        let epyc = counted("AMD EPYC 7B13", "fpu sse2 avx2", "2.36", "valgrind-3.19.0");
        assert_eq!(
            CountsMismatch::between(("BASE", &epyc), ("HEAD", &epyc.clone())),
            None
        );
        let (mut a, mut b) = (fingerprint(), fingerprint());
        b.machine.cpu = Some("Intel Xeon".into());
        a.machine.glibc = Some("2.36".into());
        assert_eq!(CountsMismatch::between(("BASE", &a), ("HEAD", &b)), None);
        // A count beside a time is no count of two machines: the settings tell them apart elsewhere.
        assert_eq!(CountsMismatch::between(("BASE", &epyc), ("HEAD", &b)), None);
    }

    #[test]
    fn counts_of_two_machines_are_refused_naming_the_difference() {
        let epyc = counted("AMD EPYC 7B13", "fpu sse2 avx2", "2.36", "valgrind-3.19.0");
        let xeon = counted(
            "Intel Xeon Platinum 8370C",
            "fpu sse2 avx2",
            "2.39",
            "valgrind-3.22.0",
        );
        let refused = CountsMismatch::between(("BASE", &epyc), ("HEAD", &xeon)).unwrap();
        assert_eq!(
            refused.to_string(),
            "BASE was counted on AMD EPYC 7B13 with glibc 2.36 and valgrind-3.19.0, HEAD on Intel Xeon \
             Platinum 8370C with glibc 2.39 and valgrind-3.22.0: the CPU model differs; counts of two \
             machines are not comparable\nhint: measure both on one machine, or pin the runner image (e.g. \
             `runs-on: ubuntu-24.04`, not `ubuntu-latest`) so that every job counts on the same glibc and \
             Valgrind"
        );
        let fewer = counted("AMD EPYC 7B13", "fpu sse2", "2.36", "valgrind-3.19.0");
        let refused = CountsMismatch::between(("a.json", &epyc), ("b.json", &fewer)).unwrap();
        assert_eq!(
            refused.difference,
            "the CPU flags differ (avx2 only at a.json)"
        );
        let other_glibc = counted("AMD EPYC 7B13", "fpu sse2 avx2", "2.39", "valgrind-3.19.0");
        let refused = CountsMismatch::between(("BASE", &epyc), ("HEAD", &other_glibc)).unwrap();
        assert_eq!(refused.difference, "glibc differs");
        let other_valgrind = counted("AMD EPYC 7B13", "fpu sse2 avx2", "2.36", "valgrind-3.22.0");
        let refused = CountsMismatch::between(("BASE", &epyc), ("HEAD", &other_valgrind)).unwrap();
        assert_eq!(refused.difference, "Valgrind differs");
        // A count recorded before the machine's flags were: nothing shows it is the same machine.
        let mut older = epyc.clone();
        older.machine.cpu_flags = None;
        let refused = CountsMismatch::between(("BASE", &older), ("HEAD", &epyc)).unwrap();
        assert_eq!(
            refused.difference,
            "the CPU flags differ (not recorded at BASE)"
        );
    }

    #[test]
    fn many_flags_are_cut_short() {
        let all = counted("CPU", "a b c d e f g h", "2.36", "valgrind-3.19.0");
        let none = counted("CPU", "", "2.36", "valgrind-3.19.0");
        let refused = CountsMismatch::between(("BASE", &all), ("HEAD", &none)).unwrap();
        assert_eq!(
            refused.difference,
            "the CPU flags differ (a b c d e f and 2 more only at BASE)"
        );
    }
}
