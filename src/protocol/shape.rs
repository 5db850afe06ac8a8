//! The shape of each side's distribution (paper 001, `docs/mixtures.md`): a Gaussian mixture fitted to the
//! observations of BASE and of HEAD, its modes (I4) with their locations and weights, the non-parametric
//! comparison metrics I1 and I3, and the warnings the shape calls for.
//!
//! - What is fitted: the values every test sees ([`crate::model::Pair::observations`]): one per process run,
//!   where modes are states a process settles in (a CPU frequency, a memory placement) that a mean blurs; or,
//!   when each side is a single process, the samples inside it, and the warning says so (those modes are
//!   inside one process and say nothing about the next).
//! - The fit: mclust's whole search (every K up to 9, or n / [`MIN_VALUES_PER_COMPONENT`], both variance
//!   models), so that the reported shape is the model the BIC picks; nothing stops it early.
//! - Warnings: a side with two modes or more, the mixture beating one normal by very strong evidence
//!   ([`VERY_STRONG`]) and a unimodal reference, the two-piece exponential power distribution, by strong
//!   evidence ([`UNIMODAL_MARGIN`]; I4 itself is reported as fitted), is multimodal — its mean and
//!   variance describe none of the modes, so the mean protocol misleads and the median protocol (the
//!   verdict's) is the one to trust; BASE and HEAD with different numbers of modes (so established) means
//!   the change altered the shape, not only the level. A side with fewer than 3 values or all values equal
//!   is not modelled ("too few distinct values to model the shape"), which is data, never a NaN; it is a
//!   warning only when there are 3 values or more.
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
use crate::stats::mixture::unimodal::fit_unimodal_sorted;
use crate::stats::mixture::{FitOptions, select_sorted};
use crate::stats::modes::{Mode, modes};
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
}

impl Default for ShapeOptions {
    fn default() -> ShapeOptions {
        ShapeOptions {
            mixture_fit: false,
            replicates: DEFAULT_REPLICATES,
            seed: 1,
            distinct_pct: 2.0,
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

/// The BIC difference by which the mixture must also beat the unimodal reference (a two-piece exponential
/// power distribution, `stats::mixture::unimodal`) before its modes are taken as there: 2 ln B > 6, "strong"
/// evidence on Kass & Raftery's scale. One normal is a poor reference for a flat top or a skewed state,
/// which a mixture describes with several narrow components: against one normal alone, 77 of 100
/// benchmarks of uniform noise (±4 %, 100 runs per side) drew a shape warning. Measured on seeded sides of
/// 50, 100 and 200 runs (`docs/mixtures.md` §4, `calibrate/mode-warnings.py`): at a margin of 0, up to 11 %
/// of the sides of flat one-state noise are warned of modes; at 5, at most 2.5 % of the sides of any flat
/// or skewed shape; at 10, 1 %, but a state of 15 % of the runs 6 σ slower is warned in 84 % of the sides
/// of 50 runs against 94 % at 5. A larger margin never warns more (the same fits, a higher bar).
pub const UNIMODAL_MARGIN: f64 = 6.0;

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
        options,
    )
}

/// [`shape`] given also each side's values `sorted` (the mixtures' quantile starts, the unimodal reference
/// and the comparison metrics read them), without sorting them again: the same shape, the sorted values
/// being the same bits.
pub(crate) fn shape_sorted(
    name: &str,
    basis: Basis,
    unit: Unit,
    values: &BaseHead<Vec<f64>>,
    sorted: BaseHead<Sorted<'_>>,
    options: &ShapeOptions,
) -> BenchmarkShape {
    let side = |side: Side| {
        side_shape(
            values.get(side),
            *sorted.get(side),
            &fit_options(values.get(side).len()),
            options.distinct_pct,
        )
    };
    let (base_fit, head_fit) = (side(Side::Base), side(Side::Head));
    let established = BaseHead::new(base_fit.1, head_fit.1);
    let fitted = BaseHead::new(base_fit.0, head_fit.0);
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
            *established.get(side),
            values.get(side).len(),
            options.distinct_pct,
        ));
    }
    if let (Some(b), Some(h)) = (established.base, established.head)
        && b != h
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

/// The search of a side of `n` values: mclust's (K = 1..9, E and V, every K tried), K at most
/// n / [`MIN_VALUES_PER_COMPONENT`].
fn fit_options(n: usize) -> FitOptions {
    FitOptions {
        max_components: (n / MIN_VALUES_PER_COMPONENT)
            .clamp(1, FitOptions::default().max_components),
        ..FitOptions::default()
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

/// A side's BIC-chosen mixture, and the number of modes the warnings take as there (`None` when the side
/// was not modelled): its counted modes ([`counted_modes`]) when the mixture beats one normal by very
/// strong evidence ([`VERY_STRONG`]) and the unimodal reference by [`UNIMODAL_MARGIN`], else 1.
fn side_shape(
    values: &[f64],
    sorted: Sorted<'_>,
    options: &FitOptions,
    distinct_pct: f64,
) -> (SideShape, Option<usize>) {
    match select_sorted(values, sorted, options) {
        Ok(selection) => {
            let best = selection.best;
            let one_normal = selection.bic[0][0].unwrap_or(best.bic);
            let evidence = best.bic - one_normal;
            let modes = modes(&best.mixture).modes;
            let counted = counted_modes(&modes, values.len(), distinct_pct).len();
            // The reference is fitted only where it can matter: a mixture that would otherwise warn.
            let established = if evidence >= VERY_STRONG
                && counted >= 2
                && fit_unimodal_sorted(sorted)
                    .is_ok_and(|reference| best.bic - reference.bic() >= UNIMODAL_MARGIN)
            {
                counted
            } else {
                1
            };
            let shape = SideShape::Fitted {
                model: best.model,
                modes,
                mixture: best.mixture,
                evidence,
            };
            (shape, Some(established))
        }
        // n < 3 or all equal (non-finite values cannot reach here: samples are validated).
        Err(_) => (
            SideShape::TooFewDistinctValues {
                values: values.len(),
            },
            None,
        ),
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
    established: Option<usize>,
    n: usize,
    distinct_pct: f64,
) -> Option<Warning> {
    let cause = match shape {
        SideShape::Fitted { modes, .. } if established.is_some_and(|m| m >= 2) => {
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
