//! The page's URL parameters are the command line's flags: `?scene=pinball&fill=10000&
//! broad-phase=grid` is `--scene pinball --fill 10000 --broad-phase grid`, read by the same
//! clap definitions (`cli.rs`), so the names, the ranges and the refusals are the desktop's,
//! written in the page's words (`words.rs`: `'launch=N'` for `'--launch <N>'`). A switch
//! (`headless`, `mute`, `rotate`, ...) is on when named alone or as `=1`, `=true` or `=on`, off
//! as `=0`, `=false` or `=off`. The flags that read or write files are refused with what to use
//! instead (a page has no files: the record bar's Save and Load download and upload them).
//! `?help` lists the parameters ([`help_text`]), from the same definitions.

use super::words::for_page;
use crate::cli::Args;
use clap::{CommandFactory, Parser};

/// The flags a page refuses, and why.
pub const DESKTOP_ONLY: &[(&str, &str)] = &[
    (
        "replay",
        "reads a recording file; a page loads one with the record bar's Load",
    ),
    (
        "state",
        "reads a state file; a page loads one with the record bar's Load",
    ),
    (
        "record",
        "writes a file; a page saves the recording with the record bar's Save",
    ),
    (
        "save-state",
        "writes a file; a page saves the state with the record bar's Save",
    ),
    (
        "screenshot",
        "writes a file; in a page the screenshot key (Help lists it) downloads the picture",
    ),
    ("sound-out", "writes a WAV file, which a page cannot"),
];

/// The program's name, first in the argument list as on a command line.
const PROGRAM: &str = "collision-math-toy";

/// The command line a query string stands for (`?` optional); `check=NAME` is the `check`
/// subcommand with `--only NAME`, after the flags.
pub fn argv(query: &str) -> Result<Vec<String>, String> {
    let cmd = Args::command();
    let mut argv = vec![PROGRAM.to_string()];
    let mut subcommand = Vec::new();
    let query = query.strip_prefix('?').unwrap_or(query);
    for pair in query.split('&').filter(|s| !s.is_empty()) {
        let (key, value) = match pair.split_once('=') {
            Some((k, v)) => (decoded(k), Some(decoded(v))),
            None => (decoded(pair), None),
        };
        if let Some((_, why)) = DESKTOP_ONLY.iter().find(|(k, _)| *k == key) {
            return Err(format!("error: the parameter '{key}' {why}"));
        }
        if key == "check" {
            subcommand = vec!["check".to_string()];
            subcommand.extend(
                value
                    .map(|v| ["--only".to_string(), v])
                    .into_iter()
                    .flatten(),
            );
            continue;
        }
        let switch = cmd
            .get_arguments()
            .find(|a| a.get_long() == Some(key.as_str()))
            .is_some_and(|a| !a.get_action().takes_values());
        match (switch, value.as_deref()) {
            (true, None | Some("" | "1" | "true" | "on")) => argv.push(format!("--{key}")),
            (true, Some("0" | "false" | "off")) => {}
            (true, Some(v)) => {
                return Err(format!(
                    "error: the switch '{key}' is on alone or as {key}=1, off as {key}=0, not {key}={v}"
                ))
            }
            // Unknown names go to clap too, which refuses them with its suggestions.
            (false, value) => {
                argv.push(format!("--{key}"));
                argv.extend(value.map(str::to_string));
            }
        }
    }
    argv.extend(subcommand);
    Ok(argv)
}

/// The flags of a query string, or the message refusing them (clap's, as on the desktop, in
/// the page's words).
pub fn parse(query: &str) -> Result<Args, String> {
    let args = Args::try_parse_from(argv(query)?)
        .map_err(|e| for_page(e.render().to_string().trim_end()))?;
    match args.threads {
        Some(n) if n > 1 => Err(format!(
            "error: the parameter 'threads' asks for {n} threads; a page runs on one (threads=1)"
        )),
        _ => Ok(args),
    }
}

/// Whether the query asks for the list of parameters (`?help`).
pub fn asks_help(query: &str) -> bool {
    let query = query.strip_prefix('?').unwrap_or(query);
    query
        .split('&')
        .any(|pair| decoded(pair.split('=').next().unwrap_or("")) == "help")
}

/// The parameters a page takes, one paragraph each (name, value, what it does), from the
/// command line's definitions; the flags a page refuses and the subcommands are left out.
pub fn help_text() -> String {
    let cmd = Args::command();
    let mut out = String::from(
        "Collision Math Toy in a browser: the parameters of its address\n\n\
         The address sets the toy up as the command line's flags do on the desktop, for \
         example ?scene=pinball&show=aabbs&broad-phase=grid or \
         ?launch=50&frames=600&headless. A switch is on when named alone or as name=1, off as \
         name=0. In the toy, F1 (or the Help button) lists the keys and the mouse.\n",
    );
    for a in cmd.get_arguments() {
        let Some(name) = a.get_long() else { continue };
        let refused = DESKTOP_ONLY.iter().any(|(k, _)| *k == name);
        if refused || a.is_hide_set() || matches!(name, "help" | "version" | "threads") {
            continue;
        }
        let value = a
            .get_value_names()
            .and_then(|v| v.first())
            .map(|v| v.to_string());
        let takes = a.get_action().takes_values();
        let shown = match (takes, value) {
            (true, Some(v)) => format!("{name}={v}"),
            (true, None) => format!("{name}=VALUE"),
            (false, _) => name.to_string(),
        };
        let what = a.get_help().map(|h| h.to_string()).unwrap_or_default();
        out.push_str(&format!("\n{shown}\n    {}\n", for_page(&what)));
    }
    let refused: Vec<&str> = DESKTOP_ONLY.iter().map(|(k, _)| *k).collect();
    out.push_str(
        "\ncheck=kernels\n    Holds the physics' SIMD kernels (the solver's, the narrow phase's) \
         to the scalar ones' bits, as this browser runs them, and prints the check's table \
         (the desktop's check command runs the others).\n",
    );
    out.push_str(&format!(
        "\nOnly on the desktop: {} (a page has no files: the record bar's Save and Load \
         download and upload them), threads (a page runs on one), and the bench command.\n",
        refused.join(", ")
    ));
    out
}

/// A URL component decoded: `%XX` bytes and `+` for a space.
fn decoded(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match (b[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
                continue;
            }
            (b'+', _) => out.push(b' '),
            (c, _) => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readme_headless_example_is_its_command_line() {
        let a = parse("?launch=50&frames=600&headless").unwrap();
        assert_eq!((a.launch, a.frames, a.headless), (50, Some(600), true));
    }

    #[test]
    fn parameters_take_the_flags_names_and_values() {
        let a = parse("?scene=pinball&fill=10000&broad-phase=grid&show=aabbs,tracks&mute").unwrap();
        assert_eq!(a.scene.as_deref(), Some(std::path::Path::new("pinball")));
        assert_eq!(a.fill, 10_000);
        assert_eq!(a.broad_phase, Some(collide::BroadKind::Grid));
        assert_eq!(a.show, ["aabbs", "tracks"]);
        assert!(a.mute);
        assert!(!parse("?mute=0").unwrap().mute);
    }

    #[test]
    fn a_value_out_of_range_is_refused_with_the_desktops_message_in_parameters() {
        let web = parse("?launch=5000").unwrap_err();
        let desktop = Args::try_parse_from([PROGRAM, "--launch", "5000"]).unwrap_err();
        assert_eq!(web, for_page(desktop.render().to_string().trim_end()));
        assert!(
            web.contains("'launch=N'") && web.contains("0..=1000"),
            "{web}"
        );
        assert!(!web.contains("--"), "{web}");
    }

    #[test]
    fn help_lists_the_parameters_a_page_takes_in_its_words() {
        assert!(asks_help("?help") && asks_help("?scene=pool&help") && !asks_help("?helps=1"));
        let help = help_text();
        for shown in [
            "scene=NAME|FILE",
            "launch=N",
            "\nheadless\n",
            "show=LIST",
            "tour=N|list",
        ] {
            assert!(help.contains(shown), "{shown} missing from:\n{help}");
        }
        assert!(!help.contains("--"), "{help}");
        assert!(!help.contains("\nreplay="), "{help}");
        assert!(!help.contains("\nscreenshot="), "{help}");
    }

    #[test]
    fn a_negative_value_is_refused_with_the_range_as_on_the_desktop_in_parameters() {
        for (query, flag, value) in [
            ("?launch=-5", "--launch", "-5"),
            ("?seed=-1", "--seed", "-1"),
            ("?launch=1e9", "--launch", "1e9"),
        ] {
            let web = parse(query).unwrap_err();
            let desktop = Args::try_parse_from([PROGRAM, flag, value]).unwrap_err();
            assert_eq!(web, for_page(desktop.render().to_string().trim_end()));
            assert!(web.contains(&format!("{value} is not")), "{web}");
            assert!(web.contains("..="), "{web}");
        }
        assert_eq!(parse("?seed=7").unwrap().seed, 7);
    }

    #[test]
    fn an_unknown_parameter_is_refused_by_name() {
        let e = parse("?lunch=5").unwrap_err();
        assert!(e.contains("'lunch'"), "{e}");
    }

    #[test]
    fn flags_that_need_files_are_refused_with_what_to_use() {
        let e = parse("?frames=5&record=run.ron").unwrap_err();
        assert!(e.contains("'record'") && e.contains("Save"), "{e}");
    }

    #[test]
    fn more_than_one_thread_is_refused_and_one_is_taken() {
        let e = parse("?fill=2000&threads=2").unwrap_err();
        assert!(e.contains("'threads'") && e.contains("one"), "{e}");
        assert_eq!(parse("?threads=1").unwrap().threads, Some(1));
        assert!(parse("?threads=0").unwrap_err().contains("threads"));
    }

    #[test]
    fn check_is_the_subcommand_after_the_flags() {
        let argv = argv("?check=kernels&seed=3").unwrap();
        assert_eq!(argv[1..], ["--seed", "3", "check", "--only", "kernels"]);
        let a = parse("?check=kernels").unwrap();
        assert!(
            matches!(a.command, Some(crate::cli::Command::Check(c)) if c.only.as_deref() == Some("kernels"))
        );
    }

    #[test]
    fn a_switch_with_a_value_it_does_not_know_is_refused() {
        assert!(parse("?rotate=maybe").unwrap_err().contains("rotate=maybe"));
    }

    #[test]
    fn escaped_characters_are_decoded() {
        let a = parse("?show=aabbs%2Ctracks").unwrap();
        assert_eq!(a.show, ["aabbs", "tracks"]);
        assert_eq!(decoded("a+b%20c%"), "a b c%");
    }
}
