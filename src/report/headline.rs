//! The headline: what a person reads first in every format, before any table (`docs/verdicts.md` §6).
//!
//! In order: the gate when one is on (its colour and first words follow the gate: "Gate failed: mix_hash
//! time +32%"), then what changed, one sentence per verdict with the benchmarks and their numbers (slower,
//! faster, shown unchanged within ±ε, identical executables, undecided with what the runs do rule out),
//! then the suite in one sentence, then what was compared (revisions or files, runs, toolchain, machine,
//! date). Each renderer turns the sentences into its markup; names stay [`Piece::Name`] so that every sink
//! escapes them its own way.
//!
//! Vocabulary (`docs/verdicts.md` §1): "unchanged" only ever means shown equivalent within ±ε; a suite
//! whose HPT confidence is 0.5 or below, or that HPT finds no direction in, reads "no direction". A time
//! change is `time +32%` (HEAD takes 32 % longer) or `time −12%`, never a percentage of a speedup. Like
//! every report it only presents: every figure comes from the [`Analysis`].

use super::format;
use super::words;
use crate::model::BaseHead;
use crate::protocol::{Analysis, BenchmarkAnalysis, CannotFail, Direction, FailOn, Verdict};

/// How a sentence is coloured or marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mood {
    /// A gate that passed, benchmarks found faster.
    Good,
    /// A gate that failed, benchmarks found slower.
    Bad,
    /// Undecided benchmarks, a suite with no verdict.
    Neutral,
    /// Unchanged, identical, what was compared.
    Quiet,
}

/// Part of a sentence: the tool's own words, or a name from the input, which each sink makes inert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Piece {
    /// The tool's words and figures.
    Text(String),
    /// A benchmark name, as the input wrote it.
    Name(String),
    /// What a side is (a revision, a baseline, a file), as the user or the input wrote it: a name that a
    /// sink shortening names for width keeps whole (it wraps instead), so that BASE and HEAD never read
    /// alike.
    Label(String),
}

/// One sentence of the headline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Sentence {
    /// The sentence, in pieces.
    pub pieces: Vec<Piece>,
    /// How it reads.
    pub mood: Mood,
}

impl Sentence {
    fn new(mood: Mood) -> Sentence {
        Sentence {
            pieces: Vec::new(),
            mood,
        }
    }

    fn text(mut self, text: impl Into<String>) -> Sentence {
        self.pieces.push(Piece::Text(text.into()));
        self
    }

    fn name(mut self, name: &str) -> Sentence {
        self.pieces.push(Piece::Name(name.to_string()));
        self
    }

    fn label(mut self, label: &str) -> Sentence {
        self.pieces.push(Piece::Label(label.to_string()));
        self
    }

    /// The sentence as one string: the tool's words through `text`, names and labels through `name`.
    pub(crate) fn render(
        &self,
        text: impl Fn(&str) -> String,
        name: impl Fn(&str) -> String,
    ) -> String {
        self.render_labels(text, &name, &name)
    }

    /// The sentence as one string: the tool's words through `text`, names through `name`, labels through
    /// `label` (a sink that shortens names for width makes labels inert without shortening them).
    pub(crate) fn render_labels(
        &self,
        text: impl Fn(&str) -> String,
        name: impl Fn(&str) -> String,
        label: impl Fn(&str) -> String,
    ) -> String {
        self.pieces
            .iter()
            .map(|p| match p {
                Piece::Text(t) => text(t),
                Piece::Name(n) => name(n),
                Piece::Label(l) => label(l),
            })
            .collect()
    }

    /// The sentence with names as they are: for tests and for sinks that escape the whole string.
    pub(crate) fn plain(&self) -> String {
        self.render(str::to_string, str::to_string)
    }
}

/// How many benchmarks a sentence names before it says "and N more".
pub(crate) const NAMED: usize = 5;

/// The headline of `analysis`: the gate, what changed, the suite, what was compared.
pub(crate) fn headline(analysis: &Analysis) -> Vec<Sentence> {
    let mut sentences: Vec<Sentence> = gate_sentence(analysis).into_iter().collect();
    sentences.extend(changes(analysis));
    sentences.extend(suite_sentence(analysis));
    sentences.extend(compared_sentence(analysis));
    sentences
}

/// The time change of a speedup, as HEAD's time against BASE's: `time +32%`, `time −12%`.
pub(crate) fn time_change(speedup: f64) -> String {
    match format::finite(speedup).filter(|s| *s > 0.0) {
        Some(s) => {
            let pct = 100.0 * (1.0 / s - 1.0);
            let sign = if pct >= 0.0 { "+" } else { "−" };
            format!("time {sign}{}%", short_pct(pct.abs()))
        }
        None => format::MISSING.to_string(),
    }
}

/// A percentage for the headline: no decimals from 10 on, one below (`3.4`, `32`).
pub(crate) fn short_pct(pct: f64) -> String {
    if pct >= 9.95 {
        format!("{pct:.0}")
    } else {
        format!("{pct:.1}")
    }
}

/// The gate's sentence when a gate is on: failed (with the slower benchmarks or the suite), passed, or
/// passed while it cannot fail.
fn gate_sentence(analysis: &Analysis) -> Option<Sentence> {
    let gate = &analysis.gate;
    if gate.fail_on == FailOn::None {
        return None;
    }
    let flag = format!(" (--fail-on {}", gate.fail_on.as_str());
    let flag = if gate.threshold.pct() > 0.0 {
        format!(
            "{flag}, threshold {})",
            format::percent_value(gate.threshold.pct())
        )
    } else {
        format!("{flag})")
    };
    if gate.failed {
        let mut s = Sentence::new(Mood::Bad).text("Gate failed");
        let slower: Vec<&BenchmarkAnalysis> = gate
            .slower
            .iter()
            .filter_map(|n| analysis.benchmarks.iter().find(|b| &b.name == n))
            .collect();
        let broken: Vec<&crate::model::coverage::LeftOut> = analysis
            .left_out
            .iter()
            .filter(|l| crate::protocol::gate::is_broken_at_head(l))
            .collect();
        // Every reason that is not a benchmark slower or a broken HEAD is the suite's.
        let suite_slower = slower.is_empty()
            && gate
                .reasons
                .iter()
                .any(|r| !matches!(r, crate::protocol::GateReason::BrokenAtHead { .. }));
        s = s.text(format!("{flag}: "));
        if suite_slower {
            s = s.text("the suite is slower");
            if let Some(c) = format::finite_opt(analysis.suite.hpt.confidence) {
                s = s.text(format!(" (HPT confidence {})", format::confidence(c)));
            }
        } else if !slower.is_empty() {
            s = list(s, &slower, |s, b| {
                s.name(&b.name).text(format!(
                    " {}",
                    super::exact_change(b).unwrap_or_else(|| time_change(b.shown_speedup()))
                ))
            });
            if gate.threshold.pct() > 0.0 {
                s = s.text(format!(
                    ", confirmed slower, beyond the {} threshold",
                    format::percent_value(gate.threshold.pct())
                ));
            }
        }
        if !broken.is_empty() {
            if suite_slower || !slower.is_empty() {
                s = s.text("; ");
            }
            s = list(s, &broken, |s, l| {
                s.text(format!("{} ", words::coverage::granularity(l.granularity)))
                    .name(&l.name)
                    .text(format!(" {}", words::coverage::reason(l).0))
            });
            s = s.text(" at HEAD only");
        }
        return Some(s.text("."));
    }
    let slower = analysis
        .benchmarks
        .iter()
        .filter(|b| b.verdict == Verdict::Slower)
        .count();
    Some(match (&gate.cannot_fail, slower) {
        // The words for too few benchmarks say "cannot fail" themselves: not twice in one sentence.
        (Some(why), _) => Sentence::new(Mood::Neutral).text(format!(
            "Gate passed{flag}, but {}{}.",
            match why {
                CannotFail::TooFewBenchmarks { .. } => "",
                CannotFail::OnlyCounts => "it cannot fail here: ",
            },
            super::words::cannot_fail(why).trim_end_matches('.')
        )),
        // A green "passed" above a red "slower" would read as a contradiction: say what the gate tests.
        (None, n) if n > 0 && gate.fail_on == FailOn::Suite => Sentence::new(Mood::Neutral).text(format!(
            "Gate passed{flag}: the suite as a whole is not shown slower, though {n} benchmark{} {}.",
            if n == 1 { "" } else { "s" },
            if n == 1 { "is" } else { "are" }
        )),
        (None, _) if gate.fail_on == FailOn::Any => any_passed(analysis, &flag),
        (None, _) => Sentence::new(Mood::Good).text(format!("Gate passed{flag}.")),
    })
}

/// `--fail-on any` passed: what it promises ("no benchmark confirmed slower beyond the 2% threshold"), then what it
/// could not see (benchmarks too noisy for the threshold, with the slowdowns that would likely pass there)
/// and what it did not cover (bench targets and benchmarks not compared). A gate that compared nothing
/// says so in its first words.
fn any_passed(analysis: &Analysis, flag: &str) -> Sentence {
    let gate = &analysis.gate;
    let not_covered: Vec<&crate::model::coverage::LeftOut> = analysis
        .left_out
        .iter()
        .filter(|l| l.is_unmeasured())
        .collect();
    if analysis.benchmarks.is_empty() && analysis.identical.is_empty() {
        return Sentence::new(Mood::Neutral).text(format!(
            "Gate passed{flag}, but it could not fail: no benchmark was compared."
        ));
    }
    let threshold = gate.threshold.pct();
    let mut s = Sentence::new(Mood::Good).text(format!(
        "Gate passed{flag}: no benchmark confirmed slower{}",
        if threshold > 0.0 {
            format!(" beyond the {} threshold", format::percent_value(threshold))
        } else {
            String::new()
        }
    ));
    let tested = analysis
        .benchmarks
        .iter()
        .filter(|b| b.basis == crate::model::Basis::ProcessRuns)
        .count();
    let slower = analysis
        .benchmarks
        .iter()
        .filter(|b| b.verdict == Verdict::Slower)
        .count();
    if slower > 0 {
        // Not green above a red "slower": the gate's promise is about the threshold, not any slowdown.
        s.mood = Mood::Neutral;
        s = s.text(format!(
            " ({slower} {} slower, but not confirmed beyond that)",
            if slower == 1 { "is" } else { "are" }
        ));
    }
    if let Some(widest) = gate.out_of_reach.first() {
        s.mood = Mood::Neutral;
        let reference = if threshold > 0.0 {
            threshold
        } else {
            analysis
                .benchmarks
                .first()
                .map_or(0.0, |b| b.equivalence.margin_pct)
        };
        s = s.text(format!(
            "; {} of {tested} too noisy to see {} on this machine (there, slowdowns below {}% would \
             likely pass)",
            gate.out_of_reach.len(),
            format::percent_value(reference),
            short_pct(widest.reach_pct)
        ));
    }
    if !not_covered.is_empty() {
        s.mood = Mood::Neutral;
        let targets = not_covered
            .iter()
            .filter(|l| l.granularity == crate::model::coverage::Granularity::Target)
            .count();
        let benchmarks = not_covered.len() - targets;
        let mut parts = Vec::new();
        if targets > 0 {
            parts.push(format!(
                "{targets} bench target{}",
                if targets == 1 { "" } else { "s" }
            ));
        }
        if benchmarks > 0 {
            parts.push(format!(
                "{benchmarks} benchmark{}",
                if benchmarks == 1 { "" } else { "s" }
            ));
        }
        s = s.text(format!("; {} not covered (below)", parts.join(" and ")));
    }
    s.text(".")
}

/// What was not compared, one sentence: each bench target or benchmark with why and, where there is one,
/// the fix ("Not compared: bench target heavy (needs feature heavy: `--features heavy` or
/// `--all-features` compares it).").
fn not_compared(analysis: &Analysis) -> Option<Sentence> {
    let items: Vec<&crate::model::coverage::LeftOut> = analysis.left_out.iter().collect();
    if items.is_empty() {
        return None;
    }
    let s = Sentence::new(Mood::Neutral).text(format!("{} not compared: ", items.len()));
    let s = list(s, &items, |s, l| {
        let (why, quoted) = words::coverage::reason(l);
        let mut s = s
            .text(format!("{} ", words::coverage::granularity(l.granularity)))
            .name(&l.name)
            .text(format!("{} ({why}", words::coverage::side(l)));
        if let Some(quoted) = quoted {
            s = s.text(": ").name(&quoted);
        }
        if let Some(fix) = words::coverage::fix(l) {
            s = s.text(format!("; {fix}"));
        }
        s.text(")")
    });
    Some(s.text("."))
}

/// Up to [`NAMED`] items joined by commas, then "and N more" (N at least 2: one more item is named
/// rather than counted).
fn list<T>(
    mut s: Sentence,
    items: &[T],
    mut each: impl FnMut(Sentence, &T) -> Sentence,
) -> Sentence {
    let named = shown(items.len(), NAMED);
    for (i, item) in items.iter().take(named).enumerate() {
        if i > 0 {
            s = s.text(", ");
        }
        s = each(s, item);
    }
    if items.len() > named {
        s = s.text(format!(" and {} more", items.len() - named));
    }
    s
}

/// How many of `count` items a list that names up to `up_to` of them names: all when at most one would be
/// left over, since "and 1 more" takes the room of the item it hides.
pub(crate) fn shown(count: usize, up_to: usize) -> usize {
    if count <= up_to + 1 { count } else { up_to }
}

/// One sentence per verdict that some benchmark has, in the order a reader acts on them.
fn changes(analysis: &Analysis) -> Vec<Sentence> {
    let with = |v: Verdict| -> Vec<&BenchmarkAnalysis> {
        analysis
            .benchmarks
            .iter()
            .filter(|b| b.verdict == v)
            .collect()
    };
    let mut sentences = Vec::new();
    for (verdict, mood) in [(Verdict::Slower, Mood::Bad), (Verdict::Faster, Mood::Good)] {
        let mut found = with(verdict);
        if found.is_empty() {
            continue;
        }
        // The largest changes first: the ones a reader looks at.
        found.sort_by(|a, b| {
            let far = |x: &BenchmarkAnalysis| x.shown_speedup().ln().abs();
            far(b).total_cmp(&far(a))
        });
        let s = Sentence::new(mood).text(format!("{} {}: ", found.len(), verdict.as_str()));
        let s = list(s, &found, |s, b| {
            s.name(&b.name).text(format!(
                " {} ({})",
                format::speedup_with_interval_against(
                    b.shown_speedup(),
                    b.interval(),
                    b.equivalence.margin_pct,
                ),
                super::exact_change(b).unwrap_or_else(|| time_change(b.shown_speedup()))
            ))
        });
        sentences.push(s.text("."));
    }
    // Counts compared exactly are unchanged because they are equal, not within a margin.
    let (exact, unchanged): (Vec<_>, Vec<_>) = with(Verdict::Unchanged)
        .into_iter()
        .partition(|b| b.basis == crate::model::Basis::Deterministic);
    if !unchanged.is_empty() {
        let margin = format::percent_value(unchanged[0].equivalence.margin_pct);
        let s = Sentence::new(Mood::Quiet).text(format!(
            "{} unchanged (shown within ±{margin}): ",
            unchanged.len()
        ));
        sentences.push(list(s, &unchanged, |s, b| s.name(&b.name)).text("."));
    }
    if !exact.is_empty() {
        let s =
            Sentence::new(Mood::Quiet).text(format!("{} unchanged (equal counts): ", exact.len()));
        sentences.push(list(s, &exact, |s, b| s.name(&b.name)).text("."));
    }
    if !analysis.identical.is_empty() {
        let s = Sentence::new(Mood::Quiet).text(format!(
            "{} unchanged (identical executables, not run): ",
            analysis.identical.len()
        ));
        sentences.push(list(s, &analysis.identical, |s, n| s.name(n)).text("."));
    }
    sentences.extend(undecided(&with(Verdict::Inconclusive)));
    sentences.extend(not_compared(analysis));
    let unmatched = analysis.base_only.len() + analysis.head_only.len();
    if unmatched > 0 {
        sentences.push(Sentence::new(Mood::Neutral).text(format!(
            "{unmatched} not compared: present on one side only ({} only in BASE, {} only in HEAD).",
            analysis.base_only.len(),
            analysis.head_only.len()
        )));
    }
    sentences
}

/// What the runs rule out for an undecided benchmark, in percent either way: the farther end of its
/// equivalence interval (1 − 2 alpha, each direction excluded at 1 − alpha, `docs/verdicts.md` §3) as a
/// time change; `None` without an interval.
pub(crate) fn ruled_out_pct(b: &BenchmarkAnalysis) -> Option<f64> {
    let (low, high) = b.equivalence.interval?;
    let (low, high) = (format::finite(low)?, format::finite(high)?);
    (low > 0.0 && high > 0.0)
        .then(|| 100.0 * (1.0 / low - 1.0).max(high - 1.0).max(0.0))
        .filter(|pct| pct.is_finite())
}

/// The undecided benchmarks: what their runs rule out ("no change beyond ±3%"), and what would decide
/// them; those without an interval (too few runs) apart.
fn undecided(found: &[&BenchmarkAnalysis]) -> Vec<Sentence> {
    if found.is_empty() {
        return Vec::new();
    }
    let (bounded, unbounded): (Vec<&BenchmarkAnalysis>, Vec<&BenchmarkAnalysis>) =
        found.iter().partition(|b| ruled_out_pct(b).is_some());
    let mut sentences = Vec::new();
    if !bounded.is_empty() {
        let widest = bounded
            .iter()
            .filter_map(|b| ruled_out_pct(b))
            .fold(0.0f64, f64::max);
        let margin = format::percent_value(bounded[0].equivalence.margin_pct);
        let s = Sentence::new(Mood::Neutral).text(format!("{} inconclusive (", bounded.len()));
        let s = list(s, &bounded, |s, b| s.name(&b.name));
        // The runs per side that would bring the noise down to ε, as the warnings' hints count them: a
        // number a person can run, or none within the hints' limit, where only a quieter machine helps.
        let needed = bounded
            .iter()
            .map(|b| {
                let runs = b.base.n.min(b.head.n);
                b.equivalence
                    .minimum_detectable_pct
                    .filter(|m| *m > 0.0 && m.is_finite())
                    .map_or(usize::MAX, |mde| {
                        crate::protocol::equivalence::runs_for(mde, runs, b.equivalence.margin_pct)
                            .max(runs + 1)
                    })
            })
            .max()
            .unwrap_or(usize::MAX);
        let remedy = if needed <= crate::protocol::PRACTICAL_RUNS {
            format!("about {needed} runs per side or a quieter machine would decide")
        } else {
            "at this noise more runs would seldom decide them; a quieter machine would".to_string()
        };
        sentences.push(s.text(format!(
            "): no change beyond ±{}% either way, but too noisy to show ±{margin}; {remedy}.",
            short_pct(widest.max(0.1))
        )));
    }
    if !unbounded.is_empty() {
        let s = Sentence::new(Mood::Neutral).text(format!(
            "{} inconclusive with too few runs to bound the change (",
            unbounded.len()
        ));
        let s = list(s, &unbounded, |s, b| s.name(&b.name));
        sentences.push(s.text(")."));
    }
    sentences
}

/// The suite in one sentence a person accepts: HPT's direction and confidence together with what its
/// r-speedup guarantees, or why there is no verdict.
fn suite_sentence(analysis: &Analysis) -> Option<Sentence> {
    if analysis.benchmarks.is_empty() {
        return None;
    }
    let hpt = &analysis.suite.hpt;
    let r = format::level(analysis.confidence.level());
    let confidence = format::finite_opt(hpt.confidence);
    // HPT ranks the tested benchmarks only, not the counts compared exactly.
    let tested = analysis
        .benchmarks
        .iter()
        .filter(|b| b.basis != crate::model::Basis::Deterministic)
        .count();
    let text = match analysis.verdict {
        _ if tested == 0 => match analysis.verdict {
            Verdict::Unchanged => "Suite: unchanged: every count is equal.".to_string(),
            _ => "Suite: no suite test: every benchmark is a count compared exactly.".to_string(),
        },
        Verdict::Faster | Verdict::Slower => {
            let direction = hpt.direction.unwrap_or(Direction::Faster);
            let c = confidence.map_or_else(|| format::MISSING.to_string(), format::confidence);
            let guaranteed = format::finite_opt(hpt.r_speedup).map(|s| match direction {
                Direction::Faster => s,
                Direction::Slower => 1.0 / s,
            });
            let margin = match guaranteed.map(format::grid_speedup) {
                Some(f) if f != "1.00x" && f != format::MISSING => {
                    format!("; at confidence {r}, at least {f} {}", direction.as_str())
                }
                _ => format!(
                    ", but by no margin that holds at confidence {r}: the changes are not uniform"
                ),
            };
            format!(
                "Suite: {} overall (HPT confidence {c}){margin}.",
                direction.as_str()
            )
        }
        Verdict::Unchanged => {
            "Suite: unchanged: every benchmark is shown within the margin.".to_string()
        }
        Verdict::Inconclusive => match (hpt.max_confidence, hpt.direction, confidence) {
            // The gate's sentence already says why, when it cannot fail for this reason.
            (Some(best), _, _)
                if best < analysis.confidence.level() && analysis.gate.cannot_fail.is_some() =>
            {
                "Suite: no verdict: too few benchmarks for HPT (see the gate above).".to_string()
            }
            (Some(best), _, _) if best < analysis.confidence.level() => format!(
                "Suite: no verdict: with {} benchmark{} HPT reaches at most confidence {}, short of {r}.",
                tested,
                if tested == 1 { "" } else { "s" },
                format::level(best)
            ),
            (_, Some(d), Some(c)) if c > 0.5 => format!(
                "Suite: no verdict at {r}: HPT leans {} (confidence {}).",
                d.as_str(),
                format::confidence(c)
            ),
            _ => no_direction(analysis),
        },
    };
    let mood = match analysis.verdict {
        Verdict::Faster => Mood::Good,
        Verdict::Slower => Mood::Bad,
        Verdict::Unchanged => Mood::Quiet,
        Verdict::Inconclusive => Mood::Neutral,
    };
    Some(Sentence::new(mood).text(text))
}

/// The suite sentence when HPT shows no direction: none differs, or too few differ, or they balance out.
fn no_direction(analysis: &Analysis) -> String {
    let n = analysis.benchmarks.len();
    let differing = analysis
        .benchmarks
        .iter()
        .filter(|b| b.hpt.winner.is_some())
        .count();
    match (differing, format::finite_opt(analysis.suite.hpt.confidence)) {
        (0, _) => "Suite: no direction: no benchmark differs.".to_string(),
        (_, Some(c)) => format!(
            "Suite: no direction (HPT confidence {}: {differing} of {n} benchmarks differ{}).",
            format::confidence(c),
            if differing == 1 { "s" } else { "" }
        ),
        _ => format!("Suite: no direction: the {differing} benchmarks that differ balance out."),
    }
}

/// One fact of the sides' environments: the one value when they agree or one side says, both sides' when
/// they differ (`BASE x, HEAD y`).
pub(crate) fn both(fact: &BaseHead<Option<String>>) -> Option<String> {
    match (&fact.base, &fact.head) {
        (Some(b), Some(h)) if b != h => Some(format!("BASE {b}, HEAD {h}")),
        (Some(one), _) | (None, Some(one)) => Some(one.clone()),
        (None, None) => None,
    }
}

/// What was compared: each side's label, the runs per side, toolchain, machine and date, as far as the
/// inputs say.
fn compared_sentence(analysis: &Analysis) -> Option<Sentence> {
    let c = &analysis.compared;
    if c.origins.base.is_empty() && c.origins.head.is_empty() {
        return None;
    }
    let mut s = Sentence::new(Mood::Quiet)
        .text("Compared BASE ")
        .label(&c.origins.base)
        .text(" with HEAD ")
        .label(&c.origins.head);
    if let Some(runs) = runs_per_side(analysis) {
        s = s.text(format!(", {runs}"));
    }
    let facts = [both(&c.toolchain), both(&c.machine), c.date.clone()];
    for fact in facts.iter().flatten() {
        s = s.text(", ").name(fact);
    }
    Some(s.text("."))
}

/// `24 runs per side`, `6-24 runs per side`, or `1 sample set per side` for one-process inputs.
fn runs_per_side(analysis: &Analysis) -> Option<String> {
    let runs = analysis
        .benchmarks
        .iter()
        .flat_map(|b| [b.runs.base, b.runs.head]);
    let (low, high) = runs.fold((usize::MAX, 0), |(lo, hi), n| (lo.min(n), hi.max(n)));
    match (low, high) {
        (usize::MAX, _) => None,
        (lo, hi) if lo == hi => Some(format!(
            "{lo} run{} per side",
            if lo == 1 { "" } else { "s" }
        )),
        (lo, hi) => Some(format!("{lo}-{hi} runs per side")),
    }
}

/// The benchmark names of `analysis` (compared and left out) as the terminal shows them, shortened to at most
/// `columns` columns and no two alike (`docs/verdicts.md` §6).
pub(crate) fn shortened_names(analysis: &Analysis, columns: usize) -> crate::inert::Shortened {
    let names: Vec<String> = analysis
        .benchmarks
        .iter()
        .map(|b| b.name.as_str())
        .chain(analysis.left_out.iter().map(|l| l.name.as_str()))
        .map(crate::inert::terminal)
        .collect();
    crate::inert::Shortened::new(names.iter().map(String::as_str), columns)
}

/// The most columns a name takes on standard error.
const STDERR_NAME: usize = 60;

/// What standard error says when the report goes elsewhere (`docs/verdicts.md` §6): the headline's first
/// sentence (the gate's result when a gate is on, else what changed) and how many warnings the report
/// holds; the warnings themselves are not repeated.
pub(crate) fn stderr_summary(analysis: &Analysis) -> Vec<String> {
    let short = shortened_names(analysis, STDERR_NAME);
    let mut lines: Vec<String> = headline(analysis)
        .first()
        .map(|s| {
            s.render_labels(
                crate::inert::terminal,
                |n| short.get(&crate::inert::terminal(n)),
                crate::inert::terminal,
            )
        })
        .into_iter()
        .collect();
    let warnings = super::Footnotes::of(analysis, false).notes.len();
    if warnings > 0 {
        lines.push(format!(
            "{warnings} warning{}: see the report",
            if warnings == 1 { "" } else { "s" }
        ));
    }
    lines
}
