//! Where a benchmark's instructions per iteration are spent, function by function, and where they changed
//! between BASE and HEAD (`docs/instruction-counts.md` §6): a [`Profile`] is one run's, read from
//! callgrind's dumps by `--measure instructions`; [`changes`] sets two side by side. Must not: read dumps
//! (`measure::valgrind`) or word anything (`report`).

/// One run's functions of the benchmark's routine, each with its inclusive instructions per iteration
/// (its own and its callees', counting only its calls from the routine), largest first. The harness's own
/// frames and what is above the routine are not in it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Profile {
    functions: Vec<(String, f64)>,
}

impl Profile {
    /// A profile of `functions` (name, inclusive instructions per iteration), in any order.
    pub fn new(mut functions: Vec<(String, f64)>) -> Profile {
        functions.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        Profile { functions }
    }

    /// The functions, largest first.
    pub fn functions(&self) -> &[(String, f64)] {
        &self.functions
    }

    fn get(&self, name: &str) -> Option<f64> {
        self.functions
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, c)| *c)
    }
}

/// How a function's count moved from BASE to HEAD.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FunctionStatus {
    /// In both sides' routines, with different counts.
    Changed,
    /// In HEAD's routine only.
    Added,
    /// In BASE's routine only.
    Removed,
}

impl FunctionStatus {
    /// Its name in the JSON report: `changed`, `added` or `removed`.
    pub fn name(self) -> &'static str {
        match self {
            FunctionStatus::Changed => "changed",
            FunctionStatus::Added => "added",
            FunctionStatus::Removed => "removed",
        }
    }
}

/// One function whose inclusive instructions per iteration differ between BASE and HEAD.
#[derive(Debug, Clone, PartialEq)]
pub struct FunctionChange {
    /// The function, demangled.
    pub function: String,
    /// Its inclusive instructions per iteration at BASE (0 when added).
    pub base: f64,
    /// At HEAD (0 when removed).
    pub head: f64,
    /// HEAD − BASE, in instructions per iteration.
    pub change: f64,
    /// `change` over the benchmark's own change (HEAD's count − BASE's): 1 when the function holds the
    /// whole change; above 1 or negative when other functions moved the other way; `None` when the
    /// benchmark's count did not change.
    pub share: Option<f64>,
    /// Whether it is in both routines, or in one only.
    pub status: FunctionStatus,
}

/// At most this many functions are named per benchmark.
pub const MAX_CHANGES: usize = 10;

/// The functions whose inclusive counts per iteration differ between `base` and `head`, largest absolute
/// change first (then by name), at most [`MAX_CHANGES`]; `total_change` is the benchmark's change, HEAD's
/// count − BASE's, in instructions per iteration, which each `share` is taken of. A difference below half
/// an instruction per iteration is no change (the dumps' differences are exact integers over the
/// iterations; a fraction is rounding).
pub fn changes(base: &Profile, head: &Profile, total_change: f64) -> Vec<FunctionChange> {
    let mut names: Vec<&str> = base
        .functions
        .iter()
        .chain(&head.functions)
        .map(|(n, _)| n.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    let mut out: Vec<FunctionChange> = names
        .into_iter()
        .filter_map(|name| {
            let (b, h) = (base.get(name), head.get(name));
            let status = match (b, h) {
                (Some(_), Some(_)) => FunctionStatus::Changed,
                (None, Some(_)) => FunctionStatus::Added,
                (Some(_), None) => FunctionStatus::Removed,
                (None, None) => return None,
            };
            let (b, h) = (b.unwrap_or(0.0), h.unwrap_or(0.0));
            let change = h - b;
            (change.abs() >= 0.5).then(|| FunctionChange {
                function: name.to_string(),
                base: b,
                head: h,
                change,
                share: (total_change != 0.0).then(|| change / total_change),
                status,
            })
        })
        .collect();
    out.sort_by(|x, y| {
        y.change
            .abs()
            .total_cmp(&x.change.abs())
            .then_with(|| x.function.cmp(&y.function))
    });
    out.truncate(MAX_CHANGES);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(functions: &[(&str, f64)]) -> Profile {
        Profile::new(functions.iter().map(|(n, c)| (n.to_string(), *c)).collect())
    }

    #[test]
    fn changes_are_largest_first_with_their_share_and_added_or_removed_named() {
        let base = profile(&[
            ("closure", 20_012.0),
            ("work", 20_002.0),
            ("gone", 30.0),
            ("same", 4.0),
        ]);
        let head = profile(&[
            ("closure", 20_118.0),
            ("work", 20_002.0),
            ("extra", 102.0),
            ("same", 4.0),
        ]);
        // The benchmark: 20,064 at BASE, 20,170 at HEAD.
        let found = changes(&base, &head, 106.0);
        let brief: Vec<(&str, f64, FunctionStatus)> = found
            .iter()
            .map(|c| (c.function.as_str(), c.change, c.status))
            .collect();
        assert_eq!(
            brief,
            [
                ("closure", 106.0, FunctionStatus::Changed),
                ("extra", 102.0, FunctionStatus::Added),
                ("gone", -30.0, FunctionStatus::Removed),
            ]
        );
        assert_eq!(found[0].share, Some(1.0));
        assert_eq!(found[1].share, Some(102.0 / 106.0));
        assert_eq!((found[1].base, found[1].head), (0.0, 102.0));
        assert_eq!((found[2].base, found[2].head), (30.0, 0.0));
        // No share of a change of nothing.
        assert_eq!(changes(&base, &head, 0.0)[0].share, None);
    }

    #[test]
    fn at_most_ten_and_a_fraction_of_an_instruction_is_no_change() {
        let base = profile(&[]);
        let many: Vec<(String, f64)> = (0..15)
            .map(|i| (format!("f{i:02}"), 10.0 + i as f64))
            .collect();
        let head = Profile::new(many);
        let found = changes(&base, &head, 100.0);
        assert_eq!(found.len(), MAX_CHANGES);
        assert_eq!(found[0].function, "f14");
        assert!(changes(&profile(&[("a", 1.0)]), &profile(&[("a", 1.4)]), 0.4).is_empty());
    }
}
