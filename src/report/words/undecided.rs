//! Why a benchmark is undecided (neither a difference nor equivalence shown), and what would decide it:
//! its interval against the margin, the noise's smallest detectable change, the runs that would see the
//! margin. Must not: compute any of these numbers (the protocol carries them).

use super::Words;
use crate::protocol::Undecided;

/// Why a benchmark is undecided, and what would decide it.
pub(super) fn undecided_words(u: &Undecided) -> Words {
    let (alpha, margin, runs) = (u.alpha, u.margin_pct, u.runs);
    let level = 1.0 - 2.0 * alpha;
    // A level that is not --confidence says where it comes from.
    let why = match u.looks {
        0 | 1 => format!("1 − 2 × {alpha:.3}: the two one-sided tests of equivalence"),
        looks => format!(
            "1 − 2 × {:.2}/{looks}: the two one-sided tests of equivalence, over {looks} looks",
            alpha * f64::from(looks)
        ),
    };
    let interval = match u.interval {
        Some((low, high)) => format!(
            "its {level:.2} interval of the speedup ({why}), [{low:.4}, {high:.4}], reaches beyond"
        ),
        None => "no interval of the speedup can be computed within".to_string(),
    };
    let excluded = u
        .ruled_out_pct
        .map(|wide| format!(", but it rules out changes of {wide}% or more"))
        .unwrap_or_default();
    let message = match u.minimum_detectable_pct {
        Some(mde) => format!(
            "neither a difference nor equivalence within ±{margin}% is shown: {interval} \
             ±{margin}%{excluded}; at this noise the test sees changes of about {mde:.1}% or more \
             with {runs} runs per side"
        ),
        None => format!(
            "neither a difference nor equivalence within ±{margin}% is shown: {interval} \
             ±{margin}%{excluded}"
        ),
    };
    let hint = u.runs_needed.map(|needed| match needed {
        Some(needed) => format!(
            "about {needed} process runs per side would see ±{margin}% (a longer comparison); or accept \
             a wider margin with --equivalence"
        ),
        None => format!(
            "the noise here is too high to see ±{margin}% in a practical number of runs: a quieter \
             machine (nothing else running, a fixed CPU frequency) lowers it; or accept a wider margin \
             with --equivalence"
        ),
    });
    Words { message, hint }
}
