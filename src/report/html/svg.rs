//! The few SVG and HTML pieces the plots are made of: escaping, a logarithmic and a linear scale with their
//! ticks, and coordinates printed with one decimal (a pixel of a 720-wide view box needs no more, and the
//! page of 1000 benchmarks stays small).
//!
//! Everything the user can influence (benchmark names, messages) goes through [`escape`] before it reaches
//! the page, as text or as an attribute value.

use std::fmt::Write as _;

/// `text` safe as HTML or SVG text and as a quoted attribute value: `& < > " '` become entities and
/// control, bidi and other hidden characters are shown escaped (`crate::inert::html`).
pub(crate) fn escape(text: &str) -> String {
    crate::inert::html(text)
}

/// At most `max` characters of `text`, ending in `…` when cut (names of thousands of characters still fit
/// a label; the whole name stays in a tooltip).
pub(crate) fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// A coordinate with one decimal, without a trailing `.0`.
pub(crate) fn px(x: f64) -> String {
    let rounded = (x * 10.0).round() / 10.0;
    if rounded == rounded.trunc() {
        format!("{}", rounded as i64)
    } else {
        format!("{rounded:.1}")
    }
}

/// A logarithmic scale from the ratio domain [lo, hi] onto the pixels [left, right].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LogScale {
    lo: f64,
    hi: f64,
    left: f64,
    right: f64,
}

impl LogScale {
    /// The scale spanning every finite positive value of `values` and 1, widened by `pad` (a ratio, e.g.
    /// 1.05) and kept within [1/`limit`, `limit`]; `values` may be empty (then [1/pad, pad]).
    pub(crate) fn around_one(
        values: impl IntoIterator<Item = f64>,
        pad: f64,
        limit: f64,
        left: f64,
        right: f64,
    ) -> LogScale {
        let (lo, hi) = values
            .into_iter()
            .filter(|v| v.is_finite() && *v > 0.0)
            .fold((1.0f64, 1.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        LogScale {
            lo: (lo / pad).max(1.0 / limit),
            hi: (hi * pad).min(limit),
            left,
            right,
        }
    }

    /// The pixel of `value`, clamped to the plot; `None` for a value that is not finite and positive.
    pub(crate) fn x(&self, value: f64) -> Option<f64> {
        (value.is_finite() && value > 0.0).then(|| {
            let span = self.hi.ln() - self.lo.ln();
            let t = if span > 0.0 {
                (value.ln() - self.lo.ln()) / span
            } else {
                0.5
            };
            self.left + t.clamp(0.0, 1.0) * (self.right - self.left)
        })
    }

    /// The ratios at the two ends of the axis.
    pub(crate) fn domain(&self) -> (f64, f64) {
        (self.lo, self.hi)
    }

    /// Whether `value` lies outside the domain (an infinite value does).
    pub(crate) fn outside(&self, value: f64) -> bool {
        !(value >= self.lo && value <= self.hi)
    }

    /// Ticks worth labelling, round on both sides of 1 (1.01, 1.02, 1.05, 1.1, 1.2, 1.5, 2, ... above;
    /// 0.99, 0.98, 0.95, 0.9, 0.8, 0.5, ... below), those inside the domain, at least about `min_gap`
    /// pixels apart, the nearest to 1 first.
    pub(crate) fn ticks(&self, min_gap: f64) -> Vec<f64> {
        const ROUND: [f64; 31] = [
            0.001, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 1.0,
            1.01, 1.02, 1.05, 1.1, 1.2, 1.5, 2.0, 3.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0,
            1000.0,
        ];
        let mut candidates: Vec<f64> = ROUND
            .iter()
            .copied()
            .filter(|v| *v >= self.lo && *v <= self.hi)
            .collect();
        candidates.sort_by(f64::total_cmp);
        candidates.dedup();
        // Keep 1 always, then every candidate far enough from the ones kept, nearest to 1 first.
        candidates.sort_by(|a, b| a.ln().abs().total_cmp(&b.ln().abs()));
        let mut kept: Vec<(f64, f64)> = Vec::new();
        for v in candidates {
            let Some(x) = self.x(v) else { continue };
            if kept.iter().all(|(_, k)| (k - x).abs() >= min_gap) {
                kept.push((v, x));
            }
        }
        let mut ticks: Vec<f64> = kept.into_iter().map(|(v, _)| v).collect();
        ticks.sort_by(f64::total_cmp);
        ticks
    }
}

/// A tick label of a ratio: `1x`, `1.05x`, `0.5x`.
pub(crate) fn ratio_label(v: f64) -> String {
    let mut text = format!("{v:.3}");
    while text.ends_with('0') {
        text.pop();
    }
    if text.ends_with('.') {
        text.pop();
    }
    format!("{text}x")
}

/// A linear scale from [lo, hi] onto [left, right] (reversed when right < left, as for a y axis).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct LinearScale {
    /// The lower end of the data range.
    pub lo: f64,
    /// The upper end of the data range.
    pub hi: f64,
    /// The coordinate, in SVG user units, that `lo` maps to.
    pub left: f64,
    /// The coordinate, in SVG user units, that `hi` maps to.
    pub right: f64,
}

impl LinearScale {
    /// The coordinate of `value`, clamped to [left, right]; the middle when the data range is empty.
    pub(crate) fn x(&self, value: f64) -> f64 {
        let span = self.hi - self.lo;
        let t = if span > 0.0 {
            (value - self.lo) / span
        } else {
            0.5
        };
        self.left + t.clamp(0.0, 1.0) * (self.right - self.left)
    }

    /// About `count` round ticks (1, 2 or 5 times a power of ten) inside [lo, hi].
    pub(crate) fn ticks(&self, count: usize) -> Vec<f64> {
        let span = self.hi - self.lo;
        if !(span.is_finite() && span > 0.0) {
            return vec![self.lo];
        }
        let raw = span / count.max(1) as f64;
        let power = 10f64.powf(raw.log10().floor());
        let step = [1.0, 2.0, 5.0, 10.0]
            .iter()
            .map(|m| m * power)
            .find(|s| *s >= raw)
            .unwrap_or(10.0 * power);
        let first = (self.lo / step).ceil() as i64;
        let last = (self.hi / step).floor() as i64;
        (first..=last).map(|i| i as f64 * step).collect()
    }
}

/// Appends `<text>` at (x, y) with a class and an anchor.
pub(crate) fn text(out: &mut String, x: f64, y: f64, anchor: &str, class: &str, content: &str) {
    let _ = write!(
        out,
        r#"<text x="{}" y="{}" text-anchor="{anchor}" class="{class}">{}</text>"#,
        px(x),
        px(y),
        escape(content)
    );
}

/// Appends a `<line>` with a class.
pub(crate) fn line(out: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64), class: &str) {
    let _ = write!(
        out,
        r#"<line x1="{}" y1="{}" x2="{}" y2="{}" class="{class}"/>"#,
        px(x1),
        px(y1),
        px(x2),
        px(y2)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_markup_character_is_escaped() {
        assert_eq!(
            escape(r#"<a href="x" onclick='y'>&amp;</a>"#),
            "&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;"
        );
    }

    #[test]
    fn long_names_are_cut_with_an_ellipsis() {
        assert_eq!(shorten("abcdef", 6), "abcdef");
        assert_eq!(shorten("abcdefg", 6), "abcde…");
        assert_eq!(shorten(&"é".repeat(10_000), 4).chars().count(), 4);
    }

    #[test]
    fn the_log_scale_puts_reciprocals_symmetrically_around_one() {
        let scale = LogScale::around_one([0.5, 2.0], 1.0, 1000.0, 0.0, 100.0);
        assert_eq!(scale.x(1.0), Some(50.0));
        assert_eq!(scale.x(0.5), Some(0.0));
        assert_eq!(scale.x(2.0), Some(100.0));
        assert_eq!(scale.x(f64::INFINITY), None);
        assert!(scale.outside(f64::INFINITY) && scale.outside(4.0) && !scale.outside(1.5));
        // 1.1 is 6.9 px from 1 and 0.9 is 7.6 px: too close at a gap of 10; 0.7 is 24.3 px and 0.8 16.1 px
        // from 1, and 0.8 is taken first, so 0.7 (8.2 px from it) is not.
        assert_eq!(scale.ticks(10.0), [0.5, 0.8, 1.0, 1.2, 1.5, 2.0]);
    }

    #[test]
    fn linear_ticks_are_round() {
        let scale = LinearScale {
            lo: 0.13,
            hi: 0.92,
            left: 0.0,
            right: 1.0,
        };
        let ticks = scale.ticks(4);
        assert_eq!(ticks.len(), 4);
        assert!((ticks[0] - 0.2).abs() < 1e-12 && (ticks[3] - 0.8).abs() < 1e-12);
    }

    #[test]
    fn coordinates_have_one_decimal_at_most() {
        assert_eq!(px(12.0), "12");
        assert_eq!(px(12.34), "12.3");
        assert_eq!(px(-0.04), "0");
    }
}
