//! The shape of one benchmark's sides as data (paper 001, `docs/mixtures.md`): the fitted mixtures and
//! their modes, the metrics I1 and I3, the `--mixture-fit` cross-checks. `protocol::shape` fills these and
//! holds their methods; the reports read them.
//!
//! Must not: fit or decide anything, or import the protocol module that fills it.

use super::Warning;
use crate::model::{BaseHead, Basis};
use crate::stats::mixture::{Mixture, VarianceModel};
use crate::stats::modes::Mode;

/// One side's shape.
#[derive(Debug, Clone, PartialEq)]
pub enum SideShape {
    /// The BIC-chosen mixture and its modes (locations in nanoseconds).
    Fitted {
        /// Equal (E) or variable (V) component variances, as BIC chose.
        model: VarianceModel,
        /// The fitted Gaussian mixture of the side's values, in nanoseconds.
        mixture: Mixture,
        /// The mixture's modes, in increasing location.
        modes: Vec<Mode>,
        /// BIC(chosen) − BIC(one normal): about 2 ln of the Bayes factor of the mixture over one normal.
        evidence: f64,
    },
    /// Fewer than 3 values, or all equal: too few distinct values to model the shape.
    TooFewDistinctValues {
        /// How many values the side has.
        values: usize,
    },
}

/// The `--mixture-fit` cross-checks.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MixtureCheck {
    /// Î1 = E|BASE − HEAD| from the two mixtures, in nanoseconds.
    pub mean_abs_difference: f64,
    /// Î2 = P\[a HEAD run is faster than a BASE run\] from the two mixtures.
    pub p_head_faster: f64,
    /// KSfit's bootstrap p-value per side; `None` where the side was not modelled.
    pub ks_fit_p_values: BaseHead<Option<f64>>,
    /// The number of bootstrap samples behind each p-value.
    pub replicates: usize,
}

/// The shape of one benchmark.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchmarkShape {
    /// What was fitted: one value per process run, or the samples of one process per side.
    pub basis: Basis,
    /// BASE's shape.
    pub base: SideShape,
    /// HEAD's shape.
    pub head: SideShape,
    /// Ĩ1 = E|BASE − HEAD| from the observations, in nanoseconds.
    pub mean_abs_difference: Option<f64>,
    /// Ĩ3 with the two revisions: P\[a HEAD run is strictly faster than a BASE run\] (ties count 0, where
    /// `p_head_faster` counts them ½).
    pub p_head_fastest: Option<f64>,
    /// The mixture-based I1 and I2 and the fits' checks; `None` without `--mixture-fit` or when a side was
    /// not fitted.
    pub mixture_check: Option<MixtureCheck>,
    /// Shape warnings: several modes, a changed number of modes, a side that could not be modelled.
    pub warnings: Vec<Warning>,
}
