//! HPT's cross-benchmark level and the r-speedup (paper 003 §4.1 and §4.2, Algorithm 1).
//!
//! The confidence that HEAD is more than gamma times faster is 1 − p of the sign-flip signed-rank test
//! ([`crate::stats::sign_flip`]) on the d of every benchmark, HEAD's times multiplied by gamma. "BASE is more
//! than gamma times faster" multiplies BASE's times instead and uses the other tail. Nothing here writes a
//! warning: the caller turns a [`Scan`] into one.

use super::unibench::{Prepared, Tables, at_most};
use crate::protocol::Direction;
use crate::stats::sign_flip::sign_flip;

/// The r-speedup scan stops at this speedup (1000x) and says so.
pub(super) const MAX_SPEEDUP: f64 = 1000.0;

/// The grid step of Algorithm 1, in hundredths: gamma = 1.00, 1.01, 1.02, ...
const GRID_STEPS: u32 = 100 * (MAX_SPEEDUP as u32 - 1);

/// Every benchmark prepared once, with the exact rank-sum tables they share.
pub(super) struct PreparedSuite<'a> {
    pub(super) benchmarks: Vec<Prepared<'a>>,
    pub(super) tables: Tables,
}

/// HPT at gamma = 1, computed once: the verdict and the first step of both scans share it.
pub(super) struct AtOne {
    pub(super) outcomes: Vec<(f64, Option<Direction>)>,
    /// p-value of "HEAD is faster" (confidence = 1 − p).
    pub(super) p_faster: f64,
    /// p-value of "HEAD is slower".
    pub(super) p_slower: f64,
}

impl AtOne {
    pub(super) fn p_value(&self, direction: Direction) -> f64 {
        match direction {
            Direction::Faster => self.p_faster,
            Direction::Slower => self.p_slower,
        }
    }
}

/// The outcome of Algorithm 1 in one direction.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Scan {
    /// Even gamma = 1 does not reach confidence r.
    NotAtOne,
    /// The last gamma of the grid whose confidence is at least r.
    Reached(f64),
    /// Every gamma up to [`MAX_SPEEDUP`] passed.
    Bounded,
}

impl PreparedSuite<'_> {
    /// Every benchmark's d and winner without scaling, with both one-sided p-values of the sign-flip test.
    pub(super) fn at_one(&self) -> AtOne {
        let outcomes: Vec<(f64, Option<Direction>)> = self
            .benchmarks
            .iter()
            .map(|b| b.difference(1.0, 1.0, &self.tables))
            .collect();
        let d: Vec<f64> = outcomes.iter().map(|o| o.0).collect();
        let (p_faster, p_slower) = sign_flip(&d).map_or((1.0, 1.0), |t| (t.p_greater, t.p_less));
        AtOne {
            outcomes,
            p_faster,
            p_slower,
        }
    }

    /// HPT's confidence that `direction` holds by more than `gamma` times: HEAD·gamma against BASE for
    /// `Faster`, BASE·gamma against HEAD for `Slower`. 0 for an empty suite.
    pub(super) fn confidence(&self, direction: Direction, gamma: f64) -> f64 {
        1.0 - self.p_value(direction, gamma)
    }

    /// The one-sided p-value of the sign-flip test behind [`PreparedSuite::confidence`]; 1 for an empty suite.
    fn p_value(&self, direction: Direction, gamma: f64) -> f64 {
        let (scale_base, scale_head) = match direction {
            Direction::Faster => (1.0, gamma),
            Direction::Slower => (gamma, 1.0),
        };
        let d: Vec<f64> = self
            .benchmarks
            .iter()
            .map(|b| b.difference(scale_base, scale_head, &self.tables).0)
            .collect();
        match sign_flip(&d) {
            Ok(test) => match direction {
                Direction::Faster => test.p_greater,
                Direction::Slower => test.p_less,
            },
            Err(_) => 1.0,
        }
    }

    /// Algorithm 1: gamma = 1.00, 1.01, ... while the confidence stays at least r (p ≤ 1 − r up to rounding,
    /// see [`at_most`]).
    ///
    /// The paper's pseudo-code returns the gamma at which the loop breaks, i.e. the first one that fails; its
    /// definition, sup{gamma ≥ 1 : confidence ≥ r}, is the last one that passed, which is what this returns.
    /// The confidence is not monotone in gamma in general (ranks move), so the scan stops at the first
    /// failure as the paper's loop does, rather than bisecting.
    pub(super) fn scan(&self, direction: Direction, r: f64, at_one: &AtOne) -> Scan {
        let mut last = None;
        for step in 0..=GRID_STEPS {
            let gamma = f64::from(100 + step) / 100.0;
            let p = if step == 0 {
                at_one.p_value(direction)
            } else {
                self.p_value(direction, gamma)
            };
            if at_most(p, 1.0 - r) {
                last = Some(gamma);
            } else {
                return last.map_or(Scan::NotAtOne, Scan::Reached);
            }
        }
        Scan::Bounded
    }
}
