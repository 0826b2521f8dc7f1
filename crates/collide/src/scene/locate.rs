//! Where things are in a scene's text, for error messages: the line and column of each entry
//! of the top-level `shapes` list and of a top-level key, found by a light scan that skips
//! strings and comments (the RON parser reports positions only for syntax errors).

/// Line and column (1-based) of each entry of the top-level `shapes` list, found by a light
/// scan of the text (strings and comments skipped), for error messages.
pub(super) fn shape_positions(text: &str) -> Vec<(usize, usize)> {
    let code = code_chars(text);
    let Some(open) = shapes_list_start(&code) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let (mut depth, mut expect_item) = (0i32, true);
    for &(ch, line, col) in &code[open + 1..] {
        match ch {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' if depth == 0 => break,
            ']' | ')' | '}' => depth -= 1,
            ',' if depth == 0 => expect_item = true,
            c if expect_item && depth == 0 && c.is_alphabetic() => {
                out.push((line, col));
                expect_item = false;
            }
            _ => {}
        }
    }
    out
}

/// Index in `code` of the first character of the key `key` of the top-level struct (followed
/// by `:`).
pub(super) fn key_position(code: &[(char, usize, usize)], key: &str) -> Option<usize> {
    let chars: Vec<char> = code.iter().map(|c| c.0).collect();
    let key: Vec<char> = key.chars().collect();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut depth = 0i32;
    for i in 0..chars.len() {
        match chars[i] {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            _ => {}
        }
        let word_start = i == 0 || !is_ident(chars[i - 1]);
        if depth != 1 || !word_start || !chars[i..].starts_with(&key) {
            continue;
        }
        let after = chars[i + key.len()..].iter().find(|c| !c.is_whitespace());
        if after == Some(&':') {
            return Some(i);
        }
    }
    None
}

/// Index in `code` of the `[` opening the list of the `shapes` key of the top-level struct.
fn shapes_list_start(code: &[(char, usize, usize)]) -> Option<usize> {
    let chars: Vec<char> = code.iter().map(|c| c.0).collect();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut depth = 0i32;
    for i in 0..chars.len() {
        match chars[i] {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            _ => {}
        }
        let word_start = i == 0 || !is_ident(chars[i - 1]);
        if depth != 1 || !word_start || !chars[i..].starts_with(&['s', 'h', 'a', 'p', 'e', 's']) {
            continue;
        }
        // The key is followed by `:` and then `[` (whitespace aside).
        let mut rest = (i + 6..chars.len()).filter(|&k| !chars[k].is_whitespace());
        if let (Some(colon), Some(open)) = (rest.next(), rest.next()) {
            if chars[colon] == ':' && chars[open] == '[' {
                return Some(open);
            }
        }
    }
    None
}

/// Lexer state of [`code_chars`].
#[derive(Clone, Copy, PartialEq)]
enum Lex {
    Code,
    LineComment,
    /// Inside block comments nested this deep.
    BlockComment(u32),
    Str,
}

/// The characters of RON `text` outside comments and strings, each with its 1-based line and
/// column; a string is kept as its opening quote only.
pub(super) fn code_chars(text: &str) -> Vec<(char, usize, usize)> {
    let mut out = Vec::new();
    let (mut line, mut col) = (1, 0);
    let mut state = Lex::Code;
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        advance_line_col(ch, &mut line, &mut col);
        let next = chars.peek().copied();
        // Two-character tokens consume their second character here.
        let mut take_next = || {
            if let Some(n) = chars.next() {
                advance_line_col(n, &mut line, &mut col);
            }
        };
        state = match (state, ch, next) {
            (Lex::Code, '/', Some('/')) => Lex::LineComment,
            (Lex::Code, '/', Some('*')) => {
                take_next();
                Lex::BlockComment(1)
            }
            (Lex::Code, '"', _) => {
                out.push((ch, line, col));
                Lex::Str
            }
            (Lex::Code, _, _) => {
                out.push((ch, line, col));
                Lex::Code
            }
            (Lex::LineComment, '\n', _) => Lex::Code,
            (Lex::BlockComment(d), '*', Some('/')) => {
                take_next();
                if d <= 1 {
                    Lex::Code
                } else {
                    Lex::BlockComment(d - 1)
                }
            }
            (Lex::BlockComment(d), '/', Some('*')) => {
                take_next();
                Lex::BlockComment(d + 1)
            }
            (Lex::Str, '\\', _) => {
                take_next();
                Lex::Str
            }
            (Lex::Str, '"', _) => Lex::Code,
            (other, _, _) => other,
        };
    }
    out
}

/// Moves the 1-based position past `ch`: a newline starts the next line at column 0, so the
/// first character of a line is in column 1.
fn advance_line_col(ch: char, line: &mut usize, col: &mut usize) {
    if ch == '\n' {
        *line += 1;
        *col = 0;
    } else {
        *col += 1;
    }
}
