//! `println!` and `eprintln!` for the page: a module built for `wasm32-unknown-unknown` has no
//! standard output, so these (declared before the app's modules, whose `println!` they
//! replace) send each line to the page: standard output into `#summary` and the console,
//! standard error to the console. The app's lines are then the same text on both.

macro_rules! println {
    () => {
        $crate::web::page::report($crate::web::page::Kind::Out, "")
    };
    ($($arg:tt)*) => {
        $crate::web::page::report($crate::web::page::Kind::Out, &format!($($arg)*))
    };
}

macro_rules! eprintln {
    () => {
        $crate::web::page::report($crate::web::page::Kind::Err, "")
    };
    ($($arg:tt)*) => {
        $crate::web::page::report($crate::web::page::Kind::Err, &format!($($arg)*))
    };
}
