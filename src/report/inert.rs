//! Names and texts from inputs made inert in each sink.

/// `text` for a terminal or a log: control characters shown escaped, on one line.
pub(crate) fn terminal(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<char>>()
            } else {
                vec![c]
            }
        })
        .collect()
}
