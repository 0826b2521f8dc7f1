//! WAV files: 16-bit PCM, one channel. The header is the 44 bytes of the RIFF "WAVE" format
//! with a "fmt " chunk (format 1, PCM) and a "data" chunk.

use std::io::Write;
use std::path::Path;

/// The samples (each clamped to −1..=1) as a 16-bit mono WAV at `rate` samples per second.
pub fn bytes(samples: &[f32], rate: u32) -> Vec<u8> {
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + samples.len() * 2);
    out.extend(b"RIFF");
    out.extend((36 + data_len).to_le_bytes());
    out.extend(b"WAVEfmt ");
    out.extend(16u32.to_le_bytes()); // the fmt chunk's size
    out.extend(1u16.to_le_bytes()); // PCM
    out.extend(1u16.to_le_bytes()); // one channel
    out.extend(rate.to_le_bytes());
    out.extend((rate * 2).to_le_bytes()); // bytes per second
    out.extend(2u16.to_le_bytes()); // bytes per frame
    out.extend(16u16.to_le_bytes()); // bits per sample
    out.extend(b"data");
    out.extend(data_len.to_le_bytes());
    for &s in samples {
        let s = if s.is_finite() {
            s.clamp(-1.0, 1.0)
        } else {
            0.0
        };
        out.extend(((s * 32767.0).round() as i16).to_le_bytes());
    }
    out
}

/// Writes [`bytes`] to `path`; the error names the file.
pub fn write(path: &Path, samples: &[f32], rate: u32) -> Result<(), String> {
    std::fs::File::create(path)
        .and_then(|mut f| f.write_all(&bytes(samples, rate)))
        .map_err(|e| format!("{}: cannot write the sound: {e}", path.display()))
}

/// The samples and rate of a WAV written by [`bytes`] (16-bit mono PCM with a 44-byte
/// header), or `None` for anything else.
#[cfg(test)]
pub fn parse(bytes: &[u8]) -> Option<(Vec<i16>, u32)> {
    let u16_at = |k: usize| Some(u16::from_le_bytes(bytes.get(k..k + 2)?.try_into().ok()?));
    let u32_at = |k: usize| Some(u32::from_le_bytes(bytes.get(k..k + 4)?.try_into().ok()?));
    let plain = bytes.get(0..4)? == b"RIFF"
        && bytes.get(8..16)? == b"WAVEfmt "
        && u16_at(20)? == 1
        && u16_at(22)? == 1
        && u16_at(34)? == 16
        && bytes.get(36..40)? == b"data";
    if !plain {
        return None;
    }
    let data = bytes.get(44..44 + u32_at(40)? as usize)?;
    let samples = data
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    Some((samples, u32_at(24)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wav_reads_back_with_its_rate_and_samples() {
        let samples = [0.0, 0.5, -0.5, 1.0, -1.0, 2.0, f32::NAN];
        let b = bytes(&samples, 44_100);
        assert_eq!(b.len(), 44 + 2 * samples.len());
        let (read, rate) = parse(&b).expect("a WAV");
        assert_eq!(rate, 44_100);
        assert_eq!(read, vec![0, 16384, -16384, 32767, -32767, 32767, 0]);
        assert!(parse(b"RIFF....WAVEjunk").is_none());
    }
}
