//! The interval drawn in a line of text, for the terminal table and the Markdown: `  ─●─┼    ` places a
//! benchmark's median speedup (`●`) and its interval (`─`) against 1x (`┼`, or `│` when the interval does
//! not contain 1) on a logarithmic scale shared by every row, so that size and certainty read without
//! numbers. An interval that goes past the scale ends in `◂` or `▸`.
//!
//! The scale is symmetric around 1 and spans the farthest finite estimate or bound of the analysis, at
//! least ±5 % (so that a suite of tiny changes is not blown up into full-width bars) and at most 10x either
//! way (beyond, the ends are arrows). Like every report it only presents what the analysis computed.

use crate::protocol::Analysis;

/// Cells of a glyph; odd, so that 1x has a cell of its own in the middle.
pub const WIDTH: usize = 15;

/// The scale shared by every glyph of one report: the natural log of the largest ratio drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GlyphScale {
    half: f64,
}

/// What a drawing of the speedups must span: every benchmark's median speedup and the bounds of its
/// interval (NaN where it has none); shared by the glyphs and the HTML forest plot.
pub fn drawn_speedups(analysis: &Analysis) -> impl Iterator<Item = f64> + '_ {
    analysis.benchmarks.iter().flat_map(|b| {
        let (lo, hi) = b
            .median_test
            .speedup_interval
            .unwrap_or((f64::NAN, f64::NAN));
        [b.speedup.median, lo, hi]
    })
}

impl GlyphScale {
    /// The scale of `analysis`: its benchmarks' median speedups and interval bounds.
    pub fn of(analysis: &Analysis) -> GlyphScale {
        GlyphScale::spanning(drawn_speedups(analysis))
    }

    /// The scale spanning the finite positive `values`, within [1.05x, 10x] either way.
    pub fn spanning(values: impl IntoIterator<Item = f64>) -> GlyphScale {
        let far = values
            .into_iter()
            .filter(|v| v.is_finite() && *v > 0.0)
            .map(|v| v.ln().abs())
            .fold(0.0f64, f64::max);
        GlyphScale {
            half: far.clamp(1.05f64.ln(), 10f64.ln()),
        }
    }

    /// The cell of `value`, or `None` when it lies beyond the scale (then on the side of its sign).
    fn cell(&self, value: f64) -> Result<usize, Beyond> {
        let t = value.ln() / self.half;
        if t < -1.0 - 1e-9 {
            return Err(Beyond::Low);
        }
        if t > 1.0 + 1e-9 {
            return Err(Beyond::High);
        }
        let middle = (WIDTH - 1) as f64 / 2.0;
        Ok(((t.clamp(-1.0, 1.0) + 1.0) * middle).round() as usize)
    }

    /// The glyph of a median speedup and its interval; `None` when the speedup is not a positive number.
    pub fn glyph(&self, estimate: f64, interval: Option<(f64, f64)>) -> Option<String> {
        if !(estimate.is_finite() && estimate > 0.0) {
            return None;
        }
        let middle = WIDTH / 2;
        let mut cells = [' '; WIDTH];
        let mut crosses_one = false;
        if let Some((lo, hi)) = interval.filter(|(lo, hi)| lo.partial_cmp(hi).is_some()) {
            let at = |v: f64| match (v > 0.0).then(|| self.cell(v)) {
                Some(Ok(i)) => i,
                Some(Err(Beyond::High)) => WIDTH - 1,
                Some(Err(Beyond::Low)) | None => 0,
            };
            let (from, to) = (at(lo), at(hi));
            for c in cells.iter_mut().take(to + 1).skip(from) {
                *c = '─';
            }
            crosses_one = lo <= 1.0 && 1.0 <= hi;
            if from == 0 && !(lo > 0.0 && self.cell(lo).is_ok()) {
                cells[0] = '◂';
            }
            if to == WIDTH - 1 && self.cell(hi).is_err() {
                cells[WIDTH - 1] = '▸';
            }
        }
        cells[middle] = if crosses_one { '┼' } else { '│' };
        match self.cell(estimate) {
            Ok(i) => cells[i] = '●',
            Err(Beyond::Low) => cells[0] = '◂',
            Err(Beyond::High) => cells[WIDTH - 1] = '▸',
        }
        Some(cells.iter().collect())
    }
}

/// Which end of the scale a value lies beyond.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Beyond {
    Low,
    High,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_point_and_interval_sit_where_their_logs_put_them() {
        // Scale ±ln 2 over 15 cells: ln(x)/ln 2 = -1, 0, 1 at cells 0, 7, 14; 1.1x is at
        // (0.1375 + 1) * 7 = 7.96 -> cell 8, 1.25x at 9.25 -> 9, 1.5x at 11.1 -> 11.
        let scale = GlyphScale::spanning([2.0]);
        assert_eq!(
            scale.glyph(1.25, Some((1.1, 1.5))).unwrap(),
            "       │─●──   "
        );
        assert_eq!(
            scale.glyph(0.5, Some((0.5, 1.0))).unwrap(),
            "●──────┼       "
        );
        assert_eq!(scale.glyph(1.0, None).unwrap(), "       ●       ");
    }

    #[test]
    fn one_is_crossed_only_by_an_interval_that_contains_it() {
        // [1.01, 1.03] rounds onto the middle cell (t = 0.014 and 0.043), but does not contain 1.
        let scale = GlyphScale::spanning([2.0]);
        assert_eq!(
            scale.glyph(1.02, Some((1.01, 1.03))).unwrap(),
            "       ●       "
        );
        assert_eq!(
            scale.glyph(1.3, Some((1.01, 1.5))).unwrap(),
            "       │──●─   "
        );
        assert_eq!(
            scale.glyph(1.3, Some((0.99, 1.5))).unwrap(),
            "       ┼──●─   "
        );
    }

    #[test]
    fn intervals_past_the_scale_end_in_arrows() {
        let scale = GlyphScale::spanning([2.0]);
        // 1.2x: (0.263 + 1) * 7 = 8.8 -> cell 9; an infinite upper bound runs to the right end.
        assert_eq!(
            scale.glyph(1.5, Some((1.2, f64::INFINITY))).unwrap(),
            "       │ ──●──▸"
        );
        // Wholly below the scale: only the left arrow.
        assert_eq!(
            scale.glyph(0.1, Some((0.05, 0.2))).unwrap(),
            "◂      │       "
        );
        assert_eq!(scale.glyph(f64::NAN, None), None);
        assert_eq!(scale.glyph(0.0, None), None);
    }

    #[test]
    fn the_scale_is_at_least_five_percent_and_at_most_ten_times() {
        let tiny = GlyphScale::spanning([1.001, 0.999]);
        assert_eq!(tiny.glyph(1.05, None).unwrap(), "       │      ●");
        let huge = GlyphScale::spanning([1e6]);
        assert_eq!(huge.glyph(10.0, None).unwrap(), "       │      ●");
        assert_eq!(
            GlyphScale::spanning([]).glyph(1.0, None).unwrap(),
            "       ●       "
        );
    }
}
