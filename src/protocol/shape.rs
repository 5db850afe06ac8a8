//! The shape of each side's distribution (paper 001, `docs/mixtures.md`): a Gaussian mixture fitted to the
//! observations of BASE and of HEAD, its modes (I4) with their locations and weights, the non-parametric
//! comparison metrics I1 and I3, and the warnings the shape calls for.
//!
//! - What is fitted: the values every test sees ([`crate::model::Pair::observations`]): one per process run,
//!   where modes are states a process settles in (a CPU frequency, a memory placement) that a mean blurs; or,
//!   when each side is a single process, the samples inside it, and the warning says so (those modes are
//!   inside one process and say nothing about the next).
//! - Warnings: a side with two modes or more, the mixture beating one normal by very strong evidence
//!   ([`VERY_STRONG`]; I4 itself is reported as fitted), is multimodal — its mean and variance describe none of the
//!   modes, so the mean protocol misleads and the median protocol (the verdict's) is the one to trust; BASE
//!   and HEAD with different numbers of modes (so established) means the change altered the shape, not only the level. A side
//!   with fewer than 3 values or all values equal is not modelled ("too few distinct values to model the
//!   shape"), which is data, never a NaN; it is a warning only when there are 3 values or more.
//! - `--mixture-fit` adds the parametric I1 and I2 from the two mixtures and KSfit's bootstrap p-value per
//!   side, seeded: paper 001 found the non-parametric metrics as good or better (§6.5), so these are
//!   cross-checks, and KSfit costs N full refits per side.
//!
//! Pure: no I/O, no clock; the seed is an argument. It runs inside the analysis of a report
//! ([`super::analyse::analyse_with_shapes`]), on each benchmark's observations; [`super::analyse()`], which
//! the simulations and the races between looks call many times, leaves it out and does not pay for it.

pub use super::outcome::{BenchmarkShape, MixtureCheck, SideShape};
use super::{Cause, ShapeCause, Warning, WarningKind};
use crate::model::{BaseHead, Basis, Side, Unit};
use crate::stats::comparison::{
    mean_abs_difference_sorted, mixture_mean_abs_difference, mixture_p_less, p_first_fastest_sorted,
};
use crate::stats::ks_fit::{DEFAULT_REPLICATES, ks_fit};
use crate::stats::mixture::{FitOptions, select_sorted};
use crate::stats::modes::{Mode, modes};
use crate::stats::shapiro_wilk::shapiro_wilk_sorted;
use crate::stats::sorted::{Sorted, SortedVec};

/// What the shape step computes beyond the default.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShapeOptions {
    /// `--mixture-fit`: the parametric metrics and KSfit.
    pub mixture_fit: bool,
    /// KSfit's bootstrap samples (paper 001: N = 200).
    pub replicates: usize,
    /// The seed of KSfit's draws.
    pub seed: u64,
    /// Modes closer than this, in percent of their location, are one level for the warnings: the
    /// comparison's equivalence margin (`--equivalence`), within which two levels are practically the same.
    pub distinct_pct: f64,
    /// The search's screen ([`FitOptions::screen`]): [`SCREEN_MARGIN`] by default, `None` for the whole
    /// search (the simulation that chose the margin compares the two).
    pub screen: Option<f64>,
    /// The normality screen ([`NORMALITY_SCREEN`]): a side of at least [`NORMALITY_SCREEN_MIN_VALUES`]
    /// values whose Shapiro–Wilk p-value is at least this is reported as one normal without a search;
    /// `None` searches every side.
    pub normal_above: Option<f64>,
}

impl Default for ShapeOptions {
    fn default() -> ShapeOptions {
        ShapeOptions {
            mixture_fit: false,
            replicates: DEFAULT_REPLICATES,
            seed: 1,
            distinct_pct: 2.0,
            screen: Some(SCREEN_MARGIN),
            normal_above: Some(NORMALITY_SCREEN),
        }
    }
}

impl SideShape {
    /// I4, the number of modes; `None` when the side was not modelled.
    pub fn mode_count(&self) -> Option<usize> {
        match self {
            SideShape::Fitted { modes, .. } => Some(modes.len()),
            SideShape::TooFewDistinctValues { .. } => None,
        }
    }

    /// The number of modes the warnings rely on: when the mixture beats one normal by very strong evidence
    /// ([`VERY_STRONG`]), the modes that hold at least [`MIN_RUNS_PER_MODE`] of the side's `n` values
    /// (at least 1), else 1; `None` when the side was not modelled.
    pub fn established_modes(&self, n: usize, distinct_pct: f64) -> Option<usize> {
        match self {
            SideShape::Fitted {
                modes, evidence, ..
            } if *evidence >= VERY_STRONG => {
                Some(counted_modes(modes, n, distinct_pct).len().max(1))
            }
            SideShape::Fitted { .. } => Some(1),
            SideShape::TooFewDistinctValues { .. } => None,
        }
    }
}

/// The modes the warnings count: neighbours less than `distinct_pct` percent apart merged into one level
/// (at the heaviest one's location, their weights added), then the levels holding at least
/// [`MIN_RUNS_PER_MODE`] of the `n` values.
pub fn counted_modes(modes: &[Mode], n: usize, distinct_pct: f64) -> Vec<Mode> {
    struct Level {
        location: f64,
        heaviest: f64,
        weight: f64,
        last: f64,
    }
    let mut levels: Vec<Level> = Vec::new();
    for m in modes {
        match levels.last_mut() {
            Some(level) if m.location <= level.last * (1.0 + distinct_pct / 100.0) => {
                if m.weight > level.heaviest {
                    level.location = m.location;
                    level.heaviest = m.weight;
                }
                level.weight += m.weight;
                level.last = m.location;
            }
            _ => levels.push(Level {
                location: m.location,
                heaviest: m.weight,
                weight: m.weight,
                last: m.location,
            }),
        }
    }
    levels
        .into_iter()
        .filter(|level| level.weight * n as f64 >= MIN_RUNS_PER_MODE)
        .map(|level| Mode {
            location: level.location,
            weight: level.weight,
        })
        .collect()
}

/// The fewest values a mode must hold (its weight times the side's values) for the warnings to count it:
/// one or two outlying process runs are outliers, not a state the runs settle in. Found on a real crate:
/// in A/A comparisons of base64 (10 to 20 runs per side, the same code on both sides), one run of ten
/// 10 % off made "2 modes: 1.08 µs (90 %) and 1.20 µs (10 %)" and "the change altered the shape" in half
/// the benchmarks.
pub const MIN_RUNS_PER_MODE: f64 = 3.0;

/// The fewest values per mixture component: K is at most n / 5, so that each component's mean and
/// variance rest on a few values and the model never has more parameters than there are values (with
/// 10 runs, mclust's K up to 9 fitted nine near-point components of σ = 0.003 % and a BIC gain of 44).
pub const MIN_VALUES_PER_COMPONENT: usize = 5;

/// The BIC difference from which the warnings take a mixture's modes as established: 2 ln B > 10, "very
/// strong" evidence on Kass & Raftery's scale (J. Am. Stat. Assoc. 90:773–795, 1995, §3.2). Below it, a
/// skewed unimodal sample of 40 log-normal runs can show two modes (BIC gain 8.3 in `fixtures/example`).
pub const VERY_STRONG: f64 = 10.0;

/// The screen of the search for the best mixture (`docs/mixtures.md` §7): after K = 3, the search stops when
/// none of the K = 2 and K = 3 fits (E and V) comes within this margin of one normal's BIC (so 0: none beats
/// it), and the side is reported as one normal. K = 4 was half of a unimodal side's EM; on the simulation in
/// `shape/tests.rs` (7,800 sides, 2,286 of which warn) stopping there changed no warning and 11 fits, and a
/// screen after K = 2 changed warnings (trimodal sides, whose K = 2 fits fall below one normal).
pub const SCREEN_MARGIN: f64 = 0.0;

/// The normality screen (`docs/mixtures.md` §7): a side of [`NORMALITY_SCREEN_MIN_VALUES`] values or more
/// whose Shapiro–Wilk p-value is at least 0.2 is reported as one normal, with no mixture searched. Such a
/// sample is one the test of normality finds nothing against, and the warnings need a mixture that beats
/// one normal by very strong evidence ([`VERY_STRONG`]). On the simulation in `shape/tests.rs` (26 shapes
/// × n = 50 to 200, 46,800 sides, 20,393 of which warn) it changed the warnings of 1 side: a log-normal
/// sample of 50 whose full search warned of 2 modes (evidence 10.7, a false alarm). At 0.1 a side of a
/// bistable sample (two states 3 σ apart, 80 runs) lost its warning; at 0.05, 7 sides in 15,600. It leaves
/// the mixture search to about 1 in 5 of the sides that look normal; on 1000 benchmarks × 100 runs it
/// saves more than half of the analysis' EM.
pub const NORMALITY_SCREEN: f64 = 0.2;

/// The fewest values a side needs for the normality screen: below, Shapiro–Wilk misses bimodal samples
/// that the search establishes (on the simulation, at n = 15 to 40, the screen at 0.3 changed warnings).
pub const NORMALITY_SCREEN_MIN_VALUES: usize = 50;

/// The shape of one benchmark from its observations (nanoseconds); `unit` is the one its report prints.
pub fn shape(
    name: &str,
    basis: Basis,
    unit: Unit,
    values: &BaseHead<Vec<f64>>,
    options: &ShapeOptions,
) -> BenchmarkShape {
    let sorted = values.as_ref().map(|v| SortedVec::of(v));
    shape_sorted(
        name,
        basis,
        unit,
        values,
        sorted.as_ref().map(SortedVec::as_sorted),
        BaseHead::new(None, None),
        options,
    )
}

/// [`shape`] given also each side's values `sorted` (the mixtures' quantile starts and the comparison
/// metrics read them), without sorting them again, and the Shapiro–Wilk p-value of each side where the
/// mean protocol computed it (`shapiro`, else computed here for the normality screen): the same shape, the
/// sorted values being the same bits and the p-values those of the same test.
pub(crate) fn shape_sorted(
    name: &str,
    basis: Basis,
    unit: Unit,
    values: &BaseHead<Vec<f64>>,
    sorted: BaseHead<Sorted<'_>>,
    shapiro: BaseHead<Option<f64>>,
    options: &ShapeOptions,
) -> BenchmarkShape {
    let fit_options = |n: usize| FitOptions {
        patience: Some(3),
        screen: options.screen,
        max_components: (n / MIN_VALUES_PER_COMPONENT)
            .clamp(1, FitOptions::default().max_components),
        ..FitOptions::default()
    };
    let side = |side: Side| {
        let values = values.get(side);
        let sorted = *sorted.get(side);
        let looks_normal = values.len() >= NORMALITY_SCREEN_MIN_VALUES
            && options.normal_above.is_some_and(|at_least| {
                let p = shapiro
                    .get(side)
                    .or_else(|| shapiro_wilk_sorted(sorted).ok().map(|t| t.p_value));
                p.is_some_and(|p| p >= at_least)
            });
        let mut fit_options = fit_options(values.len());
        if looks_normal {
            // One normal: K = 1 is the whole search.
            fit_options.max_components = 1;
        }
        side_shape(values, sorted, &fit_options)
    };
    let fitted = BaseHead::new(side(Side::Base), side(Side::Head));
    let (base, head) = (&values.base, &values.head);
    let mixture_check = options
        .mixture_fit
        .then(|| mixture_check(&fitted, values, &fit_options, options))
        .flatten();
    let mut warnings = Vec::new();
    for side in [Side::Base, Side::Head] {
        warnings.extend(side_warning(
            name,
            (side, basis, unit),
            fitted.get(side),
            values.get(side).len(),
            options.distinct_pct,
        ));
    }
    if let (Some(b), Some(h)) = (
        fitted
            .base
            .established_modes(base.len(), options.distinct_pct),
        fitted
            .head
            .established_modes(head.len(), options.distinct_pct),
    ) && b != h
        && lacks_a_state(&fitted, values, options.distinct_pct)
    {
        warnings.push(Warning::of(
            WarningKind::Shape,
            Cause::Shape(ShapeCause::ModesChanged {
                name: name.to_string(),
                base: b,
                head: h,
            }),
        ));
    }
    BenchmarkShape {
        basis,
        mean_abs_difference: mean_abs_difference_sorted(base, head, sorted.head),
        p_head_fastest: p_first_fastest_sorted(head, &[sorted.base]),
        base: fitted.base,
        head: fitted.head,
        mixture_check,
        warnings,
    }
}

/// Whether the side with fewer modes lacks one of the other side's states. Different numbers of modes
/// alone are weak evidence: in A/A comparisons of a real crate both sides showed the same two states 5 %
/// apart, one side's fit counting two modes and the other's one. So a state of the side with more modes, at
/// ratio ρ to its heaviest level, must be missing from the other side: fewer than [`MIN_RUNS_PER_MODE`] of
/// its values lie nearer (on a log scale) to ρ times its own heaviest level than to that level.
fn lacks_a_state(
    fitted: &BaseHead<SideShape>,
    values: &BaseHead<Vec<f64>>,
    distinct_pct: f64,
) -> bool {
    let levels = |side: Side| match fitted.get(side) {
        SideShape::Fitted { modes, .. } => {
            counted_modes(modes, values.get(side).len(), distinct_pct)
        }
        SideShape::TooFewDistinctValues { .. } => Vec::new(),
    };
    let heaviest = |levels: &[Mode]| {
        levels
            .iter()
            .max_by(|a, b| a.weight.total_cmp(&b.weight))
            .map(|m| m.location)
    };
    let (base_levels, head_levels) = (levels(Side::Base), levels(Side::Head));
    let (more, fewer, other) = if head_levels.len() > base_levels.len() {
        (head_levels, base_levels, &values.base)
    } else {
        (base_levels, head_levels, &values.head)
    };
    let (Some(main), Some(other_main)) = (
        heaviest(&more),
        heaviest(&fewer).or_else(|| crate::stats::describe::median(other).ok()),
    ) else {
        return false;
    };
    more.iter().filter(|m| m.location != main).any(|m| {
        let target = (other_main * m.location / main).ln();
        let home = other_main.ln();
        let there = other
            .iter()
            .filter(|v| (v.ln() - target).abs() < (v.ln() - home).abs())
            .count();
        (there as f64) < MIN_RUNS_PER_MODE
    })
}

fn side_shape(values: &[f64], sorted: Sorted<'_>, options: &FitOptions) -> SideShape {
    match select_sorted(values, sorted, options) {
        Ok(selection) => {
            let one_normal = selection.bic[0][0].unwrap_or(selection.best.bic);
            let evidence = selection.best.bic - one_normal;
            let mixture = selection.best.mixture;
            SideShape::Fitted {
                model: selection.best.model,
                modes: modes(&mixture).modes,
                mixture,
                evidence,
            }
        }
        // n < 3 or all equal (non-finite values cannot reach here: samples are validated).
        Err(_) => SideShape::TooFewDistinctValues {
            values: values.len(),
        },
    }
}

fn mixture_check(
    fitted: &BaseHead<SideShape>,
    values: &BaseHead<Vec<f64>>,
    fit_options: &dyn Fn(usize) -> FitOptions,
    options: &ShapeOptions,
) -> Option<MixtureCheck> {
    let (SideShape::Fitted { mixture: base, .. }, SideShape::Fitted { mixture: head, .. }) =
        (&fitted.base, &fitted.head)
    else {
        return None;
    };
    // Each side its own stream of draws, so that adding a benchmark changes no other's p-value.
    let p_value = |v: &[f64], stream: u64| {
        ks_fit(
            v,
            &fit_options(v.len()),
            options.replicates,
            options.seed ^ stream,
        )
        .ok()
        .map(|k| k.p_value)
    };
    Some(MixtureCheck {
        mean_abs_difference: mixture_mean_abs_difference(base, head),
        p_head_faster: mixture_p_less(head, base, 0.0),
        ks_fit_p_values: BaseHead::new(
            p_value(&values.base, 0x6261_7365),
            p_value(&values.head, 0x6865_6164),
        ),
        replicates: options.replicates,
    })
}

fn side_warning(
    name: &str,
    (side, basis, unit): (Side, Basis, Unit),
    shape: &SideShape,
    n: usize,
    distinct_pct: f64,
) -> Option<Warning> {
    let cause = match shape {
        SideShape::Fitted { modes, .. }
            if shape
                .established_modes(n, distinct_pct)
                .is_some_and(|m| m >= 2) =>
        {
            ShapeCause::Modes {
                name: name.to_string(),
                side,
                basis,
                modes: counted_modes(modes, n, distinct_pct),
                unit,
            }
        }
        SideShape::TooFewDistinctValues { values } if n >= 3 => ShapeCause::TooFewDistinctValues {
            name: name.to_string(),
            side,
            values: *values,
        },
        _ => return None,
    };
    // The modes of one side are a detail.
    let detail = matches!(cause, ShapeCause::Modes { .. });
    let warning = Warning::of(WarningKind::Shape, Cause::Shape(cause));
    Some(if detail { warning.as_detail() } else { warning })
}

#[cfg(test)]
mod tests;
