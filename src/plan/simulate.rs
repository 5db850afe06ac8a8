//! The options of `simulate`, checked against their ranges (`docs/options.md`) before any benchmark is
//! drawn, and the looks of the project's race they ask for.

use super::ranges::{MAX_CHANGES, MAX_RUNS, number};
use super::run::first_look;
use super::{PlanError, at_least_even};
use crate::cli::SimulateArgs;
use crate::protocol::Confidence;
use crate::protocol::sequential::LookPlan;
use crate::simulation::several_versions;

/// What `simulate` replays, checked.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SimulatePlan {
    /// `--confidence`: of the project's plans' decisions.
    pub confidence: Confidence,
    /// The looks of the project's race: of BASE against HEAD, or of `--versions` versions.
    pub looks: LookPlan,
    /// ε of the equivalence check, in percent: `--equivalence`, else the project's default for two
    /// versions and `--theta` for more.
    pub equivalence_pct: f64,
    /// `--bisect N`: the bisections replayed, when asked.
    pub bisect: Option<BisectReplay>,
}

/// What `simulate --bisect N` replays: the path's length, and each comparison's confidence and looks as
/// `cargo speedup bisect` would make them on such a path.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct BisectReplay {
    /// Commits on the path after GOOD.
    pub commits: usize,
    /// Each comparison's confidence: 1 − alpha / (2⌈log2 N⌉ + 1).
    pub comparison_confidence: Confidence,
    /// Each comparison's looks: `--runs` (else the first look at that confidence) to `--max-runs`.
    pub looks: LookPlan,
}

impl SimulatePlan {
    /// Checks every flag (the first bad value is the error) and builds the race's looks.
    pub(crate) fn from_args(args: &SimulateArgs) -> Result<SimulatePlan, PlanError> {
        let confidence = check(args)?;
        let two_sided = first_look(confidence);
        let bisect = bisect_replay(args, confidence)?;
        Ok(if args.versions > 2 {
            SimulatePlan {
                bisect,
                confidence,
                looks: look_plan(
                    args,
                    several_versions::first_look(confidence, args.versions as usize, two_sided),
                )?,
                equivalence_pct: args.equivalence.unwrap_or(args.theta),
            }
        } else {
            SimulatePlan {
                bisect,
                confidence,
                looks: look_plan(args, two_sided)?,
                equivalence_pct: args
                    .equivalence
                    .unwrap_or(crate::protocol::equivalence::DEFAULT_MARGIN_PCT),
            }
        })
    }
}

/// `--bisect N`, checked, with the per-comparison confidence and looks it implies.
fn bisect_replay(
    args: &SimulateArgs,
    confidence: Confidence,
) -> Result<Option<BisectReplay>, PlanError> {
    let Some(n) = args.bisect else {
        return Ok(None);
    };
    let bad = refuse;
    if !(2..=100_000).contains(&n) {
        return bad(
            "--bisect",
            n.to_string(),
            "a number of commits on the path from 2 to 100000, e.g. 16",
            "one commit needs no bisection; 16 is a pull request of a fair size",
        );
    }
    if args.versions > 2 {
        return bad(
            "--bisect",
            n.to_string(),
            "with --versions 2 (a bisection compares two commits at a time)",
            "leave out --versions, or --bisect",
        );
    }
    if let Some(c) = args.change.iter().find(|c| **c < 0.0) {
        return bad(
            "--change",
            number(*c),
            "percentages of 0 or more with --bisect (the bisection seeks a slowdown)",
            "0 replays a range without change; 5 a 5 % slowdown",
        );
    }
    let commits = n as usize;
    let level = crate::protocol::bisect::per_comparison_confidence(confidence.level(), commits);
    let comparison_confidence = Confidence::new(level).unwrap_or(confidence);
    Ok(Some(BisectReplay {
        commits,
        comparison_confidence,
        looks: look_plan(args, first_look(comparison_confidence))?,
    }))
}

/// `flag`'s `value` refused: it is not what was `expected`, and the `hint` says what to do.
fn refuse<T>(
    flag: &'static str,
    value: String,
    expected: &'static str,
    hint: &'static str,
) -> Result<T, PlanError> {
    Err(PlanError {
        flag,
        value,
        expected,
        hint,
    })
}

/// The project's race's looks: `--runs` (else `default_first`) to `--max-runs` (else 4 times the first).
fn look_plan(args: &SimulateArgs, default_first: u32) -> Result<LookPlan, PlanError> {
    let first = args.runs.unwrap_or(default_first);
    let max = args
        .max_runs
        .unwrap_or(first.saturating_mul(crate::measure::DEFAULT_MAX_FACTOR));
    LookPlan::new(first, max).ok_or_else(|| PlanError {
        flag: "--max-runs",
        value: max.to_string(),
        expected: "at least the runs before the first look (--runs)",
        hint: "leave out --max-runs for the default cap, 4 x --runs",
    })
}

/// Checks the option values (exit 2, naming the flag) against their ranges (`docs/options.md`); the
/// confidence, typed.
fn check(args: &SimulateArgs) -> Result<Confidence, PlanError> {
    let bad = refuse;
    if args.benchmarks == 0 || args.benchmarks > 100_000_000 {
        return bad(
            "--benchmarks",
            args.benchmarks.to_string(),
            "a number of benchmarks per setting from 1 to 100000000, e.g. 10000",
            "the default, 10000, estimates a rate of 5 % to within about ±0.4 %",
        );
    }
    let confidence = at_least_even("--confidence", args.confidence)?;
    if let Some(e) = args
        .equivalence
        .filter(|e| !(e.is_finite() && *e > 0.0 && *e < 100.0))
    {
        return bad(
            "--equivalence",
            number(e),
            "a percentage above 0 and below 100, e.g. 2",
            super::EQUIVALENCE_HINT,
        );
    }
    if !(2..=1000).contains(&args.versions) {
        return bad(
            "--versions",
            args.versions.to_string(),
            "a number of versions per problem from 2 (BASE and HEAD) to 1000, e.g. 17",
            "2 replays BASE against HEAD; paper 002's races have 17 versions",
        );
    }
    let t = args.theta;
    if !(t.is_finite() && t > 0.0 && t < 100.0) {
        return bad(
            "--theta",
            number(t),
            "a percentage above 0 and below 100, e.g. 0.5",
            "θ is how much slower than the best a pick may be before it counts as a failure",
        );
    }
    if let Some(n) = args.runs.filter(|n| !(2..=MAX_RUNS).contains(n)) {
        return bad(
            "--runs",
            n.to_string(),
            "from 2 to 10000 runs before the first look, e.g. 5",
            "leave out --runs for the project's default first look",
        );
    }
    let runs = args.runs.unwrap_or(2);
    if let Some(n) = args.max_runs.filter(|&n| n < runs || n > MAX_RUNS) {
        return bad(
            "--max-runs",
            n.to_string(),
            "at least --runs and at most 10000, e.g. 20",
            "leave out --max-runs for the default cap, 4 x --runs",
        );
    }
    for (flag, value) in [
        ("--process", args.process),
        ("--within", args.within),
        ("--layout", args.layout),
    ] {
        if !(value.is_finite() && (0.0..=100.0).contains(&value)) {
            return bad(
                flag,
                number(value),
                "a percentage from 0 to 100, e.g. 1",
                "a noise is the standard deviation of log times, in percent; 1 is a quiet machine",
            );
        }
    }
    if args.change.is_empty() || args.change.len() > MAX_CHANGES {
        return bad(
            "--change",
            format!("({} values)", args.change.len()),
            "one to 100 percentages, e.g. 0,2,5",
            "each percentage is one setting, replayed on --benchmarks benchmarks",
        );
    }
    if let Some(c) = args
        .change
        .iter()
        .find(|c| !(c.is_finite() && **c > -100.0 && **c <= 1000.0))
    {
        return bad(
            "--change",
            number(*c),
            "percentages above -100 and at most 1000, e.g. 0,2,5 (negative: HEAD faster)",
            "-50 is HEAD twice as fast, 100 twice as slow",
        );
    }
    Ok(confidence)
}
