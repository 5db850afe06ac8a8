//! The interval drawn in a line of text, for the terminal table and the Markdown: `  ─●─┼    ` places a
//! benchmark's median speedup (`●`) and its interval (`─`) against 1x (`┼`, or `│` when the interval does
//! not contain 1) on a logarithmic scale shared by every row, so that size and certainty read without
//! numbers. An interval that goes past the scale ends in `◂` or `▸`.
//!
//! The scale is symmetric around 1 and spans what [`drawn_speedups`] keeps, at least ±5 % (so that a suite
//! of tiny changes is not blown up into full-width bars) and at most 10x either way (beyond, the ends are
//! arrows). [`drawn_speedups`] keeps every point but not the far bounds: one benchmark with a wide interval
//! (`1.19x [1.01, 2.2]` from six noisy runs) would otherwise squash every other row towards 1x, so a bound
//! more than [`FAR`] times as far from 1 (in log) as the farthest point, or as most rows' intervals reach,
//! is drawn clipped, as an arrow. Like every report it only presents what the analysis computed.
//!
//! The point is the ratio of the medians and the interval the Hodges-Lehmann interval of the ratio, which
//! need not contain it (two modes, few runs): both are drawn where they are, the point off its line, never
//! moved into the interval.

use crate::protocol::Analysis;

/// Cells of a glyph; odd, so that 1x has a cell of its own in the middle.
pub(crate) const WIDTH: usize = 15;

/// The smallest half-width of a scale: ±5 %.
const LEAST: f64 = 1.05;

/// How far past the reference (in log distance from 1) a bound may lie and still set the scale
/// ([`drawn_speedups`]); beyond, it is drawn clipped.
pub(crate) const FAR: f64 = 2.0;

/// The scale shared by every glyph of one report: the natural log of the largest ratio drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct GlyphScale {
    half: f64,
}

/// What a drawing of the speedups must span, shared by the glyphs and the HTML forest plot: every
/// benchmark's finite positive median speedup, and the finite positive bounds of the intervals that lie at
/// most [`FAR`] times the reference distance from 1. The reference is the larger of the farthest point, the
/// lower median over the benchmarks of their farthest bound, and ±5 %: at least half of the benchmarks
/// (rounded up) are drawn whole, and a bound is clipped only when it lies twice as far out as what most rows
/// reach.
pub(crate) fn drawn_speedups(analysis: &Analysis) -> Vec<f64> {
    drawn(
        analysis.benchmarks.iter().map(|b| b.shown_speedup()),
        analysis.benchmarks.iter().filter_map(|b| b.interval()),
    )
}

/// The rule of [`drawn_speedups`] for any rows: `points` and `intervals` (one per row that has one). The
/// bisection's chart draws its commits by it (`report::bisect::html`).
pub(crate) fn drawn(
    points: impl IntoIterator<Item = f64>,
    intervals: impl IntoIterator<Item = (f64, f64)>,
) -> Vec<f64> {
    let drawable = |v: &f64| v.is_finite() && *v > 0.0;
    let distance = |v: f64| v.ln().abs();
    let points: Vec<f64> = points.into_iter().filter(drawable).collect();
    let intervals: Vec<Vec<f64>> = intervals
        .into_iter()
        .map(|(lo, hi)| [lo, hi].into_iter().filter(drawable).collect::<Vec<f64>>())
        .filter(|bounds| !bounds.is_empty())
        .collect();
    let farthest_point = points.iter().map(|&v| distance(v)).fold(0.0, f64::max);
    let mut extents: Vec<f64> = intervals
        .iter()
        .map(|bounds| bounds.iter().map(|&v| distance(v)).fold(0.0, f64::max))
        .collect();
    extents.sort_by(f64::total_cmp);
    let lower_median = extents
        .get(extents.len().saturating_sub(1) / 2)
        .copied()
        .unwrap_or(0.0);
    let reach = FAR * farthest_point.max(lower_median).max(LEAST.ln());
    let near = intervals
        .into_iter()
        .flatten()
        .filter(|&v| distance(v) <= reach);
    points.into_iter().chain(near).collect()
}

impl GlyphScale {
    /// The scale of `analysis`: its benchmarks' median speedups and interval bounds.
    pub(crate) fn of(analysis: &Analysis) -> GlyphScale {
        GlyphScale::spanning(drawn_speedups(analysis))
    }

    /// The scale spanning the finite positive `values`, within [1.05x, 10x] either way.
    pub(crate) fn spanning(values: impl IntoIterator<Item = f64>) -> GlyphScale {
        let far = values
            .into_iter()
            .filter(|v| v.is_finite() && *v > 0.0)
            .map(|v| v.ln().abs())
            .fold(0.0f64, f64::max);
        GlyphScale {
            half: far.clamp(LEAST.ln(), 10f64.ln()),
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
    pub(crate) fn glyph(&self, estimate: f64, interval: Option<(f64, f64)>) -> Option<String> {
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
    use crate::testutil::analyses;

    fn glyphs(analysis: &Analysis) -> Vec<String> {
        let scale = GlyphScale::of(analysis);
        analysis
            .benchmarks
            .iter()
            .map(|b| {
                let interval = b.interval();
                scale.glyph(b.speedup.median, interval).unwrap()
            })
            .collect()
    }

    #[test]
    fn one_wide_interval_does_not_squash_the_other_rows() {
        let mix_hash = ("mix_hash", 0.77, (0.76, 0.84));
        let parse_ints = ("parse_ints", 1.19, (1.01, 118.0));
        let alone = glyphs(&analyses::with_speedups(&[mix_hash]));
        let both = glyphs(&analyses::with_speedups(&[mix_hash, parse_ints]));
        // Scale ±ln(1/0.76) = ±0.2744: 0.77x and 0.76x at cell 0, 0.84x at (1 − 0.6355) * 7 = 2.55 -> 3.
        assert_eq!(alone[0], "●───   │       ");
        assert_eq!(both[0], alone[0]);
        // 1.01x at 7.25 -> 7, 1.19x at 1.634 * 7 = 11.44 -> 11; 118x is beyond: an arrow.
        assert_eq!(both[1], "       │───●──▸");
    }

    #[test]
    fn wide_intervals_that_are_typical_are_drawn_whole() {
        // Every row this noisy: the bounds are the reference, none is clipped. Scale ±ln 1.25.
        let rows = [
            ("a", 1.0, (0.8, 1.25)),
            ("b", 1.02, (0.82, 1.24)),
            ("c", 0.98, (0.81, 1.2)),
        ];
        for glyph in glyphs(&analyses::with_speedups(&rows)) {
            assert!(!glyph.contains(['◂', '▸']), "{glyph}");
        }
        assert_eq!(
            glyphs(&analyses::with_speedups(&rows))[0],
            "───────●───────"
        );
    }

    #[test]
    fn points_always_set_the_scale() {
        // A point far from the others is never clipped, even where the bounds are near 1.
        let rows = [
            ("a", 1.01, (1.0, 1.02)),
            ("b", 1.0, (0.99, 1.01)),
            ("c", 3.0, (2.9, 3.1)),
        ];
        // Scale ±ln 3.1: 2.9x, 3x and 3.1x at (1 + 0.94..1) * 7 = 13.6..14 -> cell 14, no arrow.
        let drawn = glyphs(&analyses::with_speedups(&rows));
        assert_eq!(drawn[2], "       │      ●");
        // 1.01x and 1.02x at 7.06 and 7.13 -> cell 7.
        assert_eq!(drawn[0], "       ●       ");
    }

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
