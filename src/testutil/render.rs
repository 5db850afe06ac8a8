//! A report rendered into a string, as the tests of every renderer read it.

use crate::protocol::Analysis;
use crate::report::{Format, Style, renderer};

/// `analysis` rendered in `format` and `style`, as text.
pub(crate) fn render(format: Format, analysis: &Analysis, style: Style) -> String {
    let mut out = Vec::new();
    renderer(format)
        .render(analysis, style, &mut out)
        .expect("writing to a Vec cannot fail");
    String::from_utf8(out).expect("reports are UTF-8")
}
