//! The closest of a few known words to a mistyped one, for the "did you mean" of messages (a misspelt field,
//! subcommand or benchmark name). Must not: suggest a word that is not close (more than a third of its
//! letters changed).

/// The candidate nearest to `word` by edit distance, when it is close enough to be a typo of it.
pub(crate) fn closest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .map(|c| (strsim::osa_distance(word, c), c))
        .filter(|(distance, c)| {
            *distance <= (word.chars().count().max(c.chars().count()) / 3).max(1)
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn a_typo_finds_its_word_and_a_stranger_finds_none() {
        let fields = ["name", "unit", "samples", "runs"];
        assert_eq!(closest("sampels", fields), Some("samples"));
        assert_eq!(closest("nmae", fields), Some("name"));
        assert_eq!(closest("compar", ["compare", "record"]), Some("compare"));
        assert_eq!(closest("environment", fields), None);
        assert_eq!(closest("samples", fields), None);
    }
}
