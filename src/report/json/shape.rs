//! The `shape` object of each benchmark in the results JSON (`docs/json.md` §3, `docs/mixtures.md`): the
//! Gaussian mixture fitted to each side, its modes, I1 and I3, and the `--mixture-fit` cross-checks. Times
//! are in the benchmark's `unit`; a side that could not be modelled says why and has no numbers, never NaN.

use serde::Serialize;

use crate::model::Unit;
use crate::protocol::shape::{BenchmarkShape, MixtureCheck, SideShape};
use crate::report::format::finite;

type Num = Option<f64>;

#[derive(Serialize)]
pub(super) struct ShapeJson {
    base: SideShapeJson,
    head: SideShapeJson,
    /// Ĩ1 = E|BASE − HEAD| between one run of each.
    mean_abs_difference: Num,
    /// Ĩ3 with two revisions: P\[a HEAD run is strictly faster than a BASE run\].
    p_head_fastest: Num,
    /// Present under `--mixture-fit` when both sides were modelled.
    mixture_fit: Option<MixtureCheckJson>,
}

#[derive(Serialize)]
struct SideShapeJson {
    modelled: bool,
    /// BIC(chosen mixture) − BIC(one normal); the warnings count the modes from 10 up.
    bic_over_one_normal: Num,
    /// mclust's name of the model: "E" or "V", or "X" for one normal.
    model: Option<&'static str>,
    /// I4, the number of modes of the fitted density.
    mode_count: Option<usize>,
    modes: Vec<ModeJson>,
    components: Vec<ComponentJson>,
    /// Why the side was not modelled.
    reason: Option<&'static str>,
}

#[derive(Serialize)]
struct ModeJson {
    location: Num,
    weight: Num,
}

#[derive(Serialize)]
struct ComponentJson {
    weight: Num,
    mean: Num,
    sd: Num,
}

#[derive(Serialize)]
struct MixtureCheckJson {
    mean_abs_difference: Num,
    p_head_faster: Num,
    /// KSfit's bootstrap p-values, [BASE, HEAD].
    ks_fit_p_values: [Num; 2],
    replicates: usize,
}

pub(super) fn shape(s: &BenchmarkShape, unit: Unit) -> ShapeJson {
    let time = |nanos: f64| finite(nanos / unit.nanos());
    ShapeJson {
        base: side(&s.base, unit),
        head: side(&s.head, unit),
        mean_abs_difference: s.mean_abs_difference.and_then(time),
        p_head_fastest: s.p_head_fastest.and_then(finite),
        mixture_fit: s.mixture_check.as_ref().map(|c| check(c, unit)),
    }
}

fn side(s: &SideShape, unit: Unit) -> SideShapeJson {
    let time = |nanos: f64| finite(nanos / unit.nanos());
    match s {
        SideShape::Fitted {
            model,
            mixture,
            modes,
            evidence,
        } => SideShapeJson {
            modelled: true,
            bic_over_one_normal: finite(*evidence),
            // One component is one normal, mclust's "X" in one dimension (E and V coincide).
            model: Some(if mixture.components.len() == 1 {
                "X"
            } else {
                model.as_str()
            }),
            mode_count: Some(modes.len()),
            modes: modes
                .iter()
                .map(|m| ModeJson {
                    location: time(m.location),
                    weight: finite(m.weight),
                })
                .collect(),
            components: mixture
                .components
                .iter()
                .map(|c| ComponentJson {
                    weight: finite(c.weight),
                    mean: time(c.mean),
                    sd: time(c.sd),
                })
                .collect(),
            reason: None,
        },
        SideShape::TooFewDistinctValues { .. } => SideShapeJson {
            modelled: false,
            bic_over_one_normal: None,
            model: None,
            mode_count: None,
            modes: Vec::new(),
            components: Vec::new(),
            reason: Some("too few distinct values to model the shape"),
        },
    }
}

fn check(c: &MixtureCheck, unit: Unit) -> MixtureCheckJson {
    MixtureCheckJson {
        mean_abs_difference: finite(c.mean_abs_difference / unit.nanos()),
        p_head_faster: finite(c.p_head_faster),
        ks_fit_p_values: [c.ks_fit_p_values.base, c.ks_fit_p_values.head],
        replicates: c.replicates,
    }
}
