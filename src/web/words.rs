//! Messages in the page's words: the command line's flags, as clap's refusals, the library's
//! file messages and the app's notes name them, written as the address's parameters
//! (`'--launch <N>'` is `'launch=N'`, `--headless --frames N` is `headless frames=N`), and
//! clap's pointer to `--help` made the page's `?help`. Built for the tests too.

/// clap's last line of a refusal, and the page's.
const CLAP_HELP: (&str, &str) = (
    "For more information, try '--help'.",
    "The parameters a page takes: open it with ?help (for example /?help).",
);

/// What the desktop's messages say that a page has no part of, and what the page says
/// instead ("" drops it).
const DESKTOP_WORDS: &[(&str, &str)] = &[(" or --replay", ""), (" (see --sound-out)", "")];

/// `text` with every flag written as a parameter (see the module notes), without clap's
/// usage line (a command line's).
pub fn for_page(text: &str) -> String {
    let kept: Vec<&str> = text
        .split('\n')
        .filter(|l| !l.starts_with("Usage: collision-math-toy"))
        .collect();
    let mut t = kept.join("\n").replace(CLAP_HELP.0, CLAP_HELP.1);
    for (desktop, page) in DESKTOP_WORDS {
        t = t.replace(desktop, page);
    }
    let mut out = String::with_capacity(t.len());
    let mut rest = t.as_str();
    while let Some(at) = rest.find("--") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let flag_at_word_start = before
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric() && c != '-');
        let name_len = from[2..]
            .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
            .unwrap_or(from.len() - 2);
        if !flag_at_word_start || name_len == 0 {
            out.push_str("--");
            rest = &from[2..];
            continue;
        }
        out.push_str(&from[2..2 + name_len]);
        rest = &from[2 + name_len..];
        if let Some((value, after)) = flag_value(rest) {
            out.push('=');
            out.push_str(value);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// The value written after a flag, if `rest` (what follows its name) starts with one: ` <N>`
/// (clap's placeholder), or ` N`, ` FILE`, ` 99`, ` list` (a placeholder in capitals, a
/// number, `list`); and what follows it.
fn flag_value(rest: &str) -> Option<(&str, &str)> {
    let tail = rest.strip_prefix(' ')?;
    if let Some(inner) = tail.strip_prefix('<') {
        let end = inner.find('>')?;
        return Some((&inner[..end], &inner[end + 1..]));
    }
    let end = tail
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '|'))
        .unwrap_or(tail.len());
    let word = &tail[..end];
    let placeholder = !word.is_empty()
        && word.chars().all(|c| c.is_ascii_uppercase() || c == '|')
        && word.len() <= 8;
    let number = !word.is_empty() && word.chars().all(|c| c.is_ascii_digit());
    (placeholder || number || word == "list").then(|| (word, &tail[end..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_refusals_name_parameters() {
        let clap = "error: invalid value '5000' for '--launch <N>': 5000 is not in 0..=1000\n\n\
                    Usage: collision-math-toy [OPTIONS] [COMMAND]\n\n\
                    For more information, try '--help'.";
        let page = for_page(clap);
        assert!(page.contains("for 'launch=N'"), "{page}");
        assert!(page.contains("open it with ?help"), "{page}");
        assert!(!page.contains("--") && !page.contains("Usage"), "{page}");
    }

    #[test]
    fn flags_with_values_and_switches_become_parameters() {
        assert_eq!(
            for_page("use --headless --frames N to run without one"),
            "use headless frames=N to run without one"
        );
        assert_eq!(
            for_page("--tour 99: not an experiment (see --tour list)"),
            "tour=99: not an experiment (see tour=list)"
        );
        assert_eq!(
            for_page("a --fill of more than 1,000"),
            "a fill of more than 1,000"
        );
    }

    #[test]
    fn the_desktops_own_ways_are_dropped() {
        assert_eq!(
            for_page(
                "this is a recording, not a saved state (Load recording or --replay opens it)"
            ),
            "this is a recording, not a saved state (Load recording opens it)"
        );
    }

    #[test]
    fn dashes_that_are_not_flags_stay() {
        assert_eq!(for_page("1 -- 2, a--b, --"), "1 -- 2, a--b, --");
    }
}
