//! Where a benchmark's instruction count changed, for every report (`docs/instruction-counts.md` §6): the
//! functions of its routine whose inclusive instructions per iteration moved most, BASE against HEAD, from
//! the profiles `--measure instructions` keeps with each side's run ([`crate::model::Profile`]), and their
//! words. The JSON report carries the list; the Markdown and HTML reports fold it in their details; the
//! terminal prints it under the table with `--verbose`.
//!
//! Must not: read dumps (`measure::valgrind`) or compute a change (`model::changes`); names are stranger's
//! text: each renderer makes them inert for its sink.

use crate::model::{FunctionChange, FunctionStatus, Pair, changes};
use crate::protocol::Analysis;

use super::format;

/// The functions whose counts changed most in `pair`'s benchmark: `None` unless both sides are one counted
/// run with a profile and the count changed.
pub(crate) fn of_pair(pair: &Pair) -> Option<Vec<FunctionChange>> {
    let (base, head) = (pair.base.runs.runs(), pair.head.runs.runs());
    let ([base], [head]) = (base, head) else {
        return None;
    };
    let (base_profile, head_profile) = (base.profile()?, head.profile()?);
    let total = head.value() - base.value();
    if total == 0.0 {
        return None;
    }
    let found = changes(base_profile, head_profile, total);
    (!found.is_empty()).then_some(found)
}

/// Each compared benchmark whose count changed and whose profiles say where, in the report's order: its
/// name and its changes.
pub(crate) fn of(analysis: &Analysis) -> Vec<(&str, Vec<FunctionChange>)> {
    if analysis.pairs.is_empty() {
        return Vec::new();
    }
    analysis
        .benchmarks
        .iter()
        .filter_map(|b| {
            let pair = analysis.pairs.iter().find(|p| p.name == b.name)?;
            Some((b.name.as_str(), of_pair(pair)?))
        })
        .collect()
}

/// The title of a benchmark's list, around its name as the sink shows it.
pub(crate) fn title(name: &str) -> String {
    format!("Where the instructions of {name} changed (HEAD against BASE, per iteration):")
}

/// One function's change in words, its name as the sink shows it: `demo::extra: added, +102 (96.2% of the
/// change)`, `demo::work: 20002 → 20104, +102 (…)`, `gone: removed, −30 (…)`.
pub(crate) fn line(change: &FunctionChange, name: &str) -> String {
    // Instructions per iteration: whole in an exact count, else to a tenth.
    let count = |x: f64| match format::finite(x) {
        Some(x) if x.fract() == 0.0 => format!("{x:.0}"),
        _ => format::decimals(x, 1),
    };
    let signed = match change.change {
        c if c > 0.0 => format!("+{}", count(c)),
        c => format!("−{}", count(-c)),
    };
    let share = match change.share {
        Some(s) => format!(" ({} of the change)", format::percent(s)),
        None => String::new(),
    };
    match change.status {
        FunctionStatus::Added => format!("{name}: added, {signed}{share}"),
        FunctionStatus::Removed => format!("{name}: removed, {signed}{share}"),
        FunctionStatus::Changed => format!(
            "{name}: {} → {}, {signed}{share}",
            count(change.base),
            count(change.head)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Benchmark, Counted, Profile, Results, Run, Runs, Sample, Suite, Unit};
    use crate::protocol::{FailOn, Options, analyse};
    use crate::report::{Format, Style, renderer};

    static INSTRUCTIONS: Counted = Counted {
        name: "instructions",
        slug: "instructions",
    };

    /// One side: `changed (instructions)` counted `count` per iteration, spent as `profile` says (none
    /// when empty).
    fn side(count: f64, profile: &[(&str, f64)]) -> Results {
        let unit = Unit::Count(&INSTRUCTIONS);
        let run = Run::new(Sample::new(vec![count], unit).unwrap(), None);
        let run = match profile.is_empty() {
            true => run,
            false => run.with_profile(Profile::new(
                profile.iter().map(|(n, c)| (n.to_string(), *c)).collect(),
            )),
        };
        Results {
            origin: "here".to_string(),
            benchmarks: vec![Benchmark {
                name: "changed (instructions)".to_string(),
                runs: Runs::new(vec![run]).unwrap(),
                unit,
                counters: vec![],
            }],
            environment: Default::default(),
            notes: vec![],
            left_out: vec![],
        }
    }

    /// The analysis of BASE against HEAD, keeping its pairs as a measured comparison does.
    fn analysis(base: Results, head: Results) -> Analysis {
        let suite = Suite::pair(base, head);
        let mut analysis = analyse(&suite, &Options::defaults(FailOn::Any));
        analysis.pairs = suite.pairs.clone();
        analysis
    }

    fn rendered(analysis: &Analysis, format: Format, verbose: bool) -> String {
        let mut out = Vec::new();
        let style = Style {
            verbose,
            ..Style::plain()
        };
        renderer(format).render(analysis, style, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    const BASE: [(&str, f64); 2] = [("bench::{{closure}}", 20_012.0), ("demo::work", 20_002.0)];
    const HEAD: [(&str, f64); 3] = [
        ("bench::{{closure}}", 20_118.0),
        ("demo::work", 20_002.0),
        ("demo::extra<T>", 102.0),
    ];

    #[test]
    fn a_changed_count_names_its_functions_in_every_format() {
        let a = analysis(side(20_064.0, &BASE), side(20_170.0, &HEAD));
        let found = where_changed_names(&a);
        assert_eq!(found, ["bench::{{closure}}", "demo::extra<T>"]);
        let json: serde_json::Value =
            serde_json::from_str(&rendered(&a, Format::Json, false)).unwrap();
        let listed = &json["benchmarks"][0]["where_changed"];
        assert_eq!(listed[1]["function"], "demo::extra<T>");
        assert_eq!(listed[1]["status"], "added");
        assert_eq!(listed[1]["change"], 102.0);
        assert_eq!(listed[1]["share"], 102.0 / 106.0);
        assert_eq!(listed[0]["share"], 1.0);
        let added = "demo::extra<T>: added, +102 (96.2% of the change)";
        let markdown = rendered(&a, Format::Markdown, false);
        assert!(
            markdown.contains("- demo::extra&lt;T&gt;: added, +102 (96.2% of the change)"),
            "{markdown}"
        );
        assert!(
            markdown.contains("- bench::{{closure}}: 20012 → 20118, +106 (100.0% of the change)")
        );
        let html = rendered(&a, Format::Html, false);
        assert!(
            html.contains(
                "<li><code>demo::extra&lt;T&gt;</code>: added, +102 (96.2% of the change)</li>"
            ),
            "the HTML list"
        );
        assert!(!rendered(&a, Format::Table, false).contains(added));
        let verbose = rendered(&a, Format::Table, true);
        assert!(verbose.contains(&format!("  {added}")), "{verbose}");
        assert!(verbose.contains(
            "Where the instructions of changed (instructions) changed (HEAD against BASE, per iteration):"
        ));
    }

    fn where_changed_names(a: &Analysis) -> Vec<String> {
        of(a)
            .into_iter()
            .flat_map(|(_, changes)| changes.into_iter().map(|c| c.function))
            .collect()
    }

    #[test]
    fn nothing_is_said_without_both_profiles_or_without_a_change() {
        // Counts read from a file or the cache carry no profile.
        let a = analysis(side(20_064.0, &[]), side(20_170.0, &HEAD));
        assert!(of(&a).is_empty());
        assert!(!rendered(&a, Format::Json, false).contains("where_changed"));
        assert!(!rendered(&a, Format::Markdown, false).contains("Where the instructions"));
        // An unchanged count: nothing to say where.
        let a = analysis(side(20_064.0, &BASE), side(20_064.0, &BASE));
        assert!(of(&a).is_empty());
    }
}
