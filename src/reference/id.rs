//! A registry's ids: `ref_` and 13 lowercase base-36 digits, a keyed permutation of the
//! registry's counter. Never reused (a bijection), and not guessable from one another without
//! the key.

/// The keyed permutation of counters that gives a registry's ids.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ids {
    /// The keys of the permutation's four rounds.
    rounds: [u64; 4],
}

impl Ids {
    pub(super) fn new(rounds: [u64; 4]) -> Self {
        Ids { rounds }
    }

    /// The id of counter `n`: `ref_` and its permuted counter in 13 base-36 digits, the most
    /// significant first (what [`Ids::counter`] reads back). Written in parts of five, four and
    /// four digits, each a `u32` (`36⁴` is below `2³²`): three short chains of divisions the
    /// processor runs side by side, where one chain of thirteen 64-bit ones waited on each
    /// other.
    pub(super) fn of(&self, n: u64) -> [u8; 17] {
        const FOUR: u64 = 36 * 36 * 36 * 36;
        let mut id = *b"ref_0000000000000";
        let x = self.permute(n);
        let parts = [x / (FOUR * FOUR), x / FOUR % FOUR, x % FOUR].map(|p| u32::try_from(p).unwrap_or(0));
        let (high, low) = id[4..].split_at_mut(5);
        let (middle, last) = low.split_at_mut(4);
        for (digits, mut part) in [high, middle, last].into_iter().zip(parts) {
            for digit in digits.iter_mut().rev() {
                *digit = b"0123456789abcdefghijklmnopqrstuvwxyz"[(part % 36) as usize];
                part /= 36;
            }
        }
        id
    }

    /// The counter whose id `id` is, where it is an id at all.
    pub(super) fn counter(&self, id: &str) -> Option<u64> {
        parse_id(id).map(|p| self.permute_back(p))
    }

    /// A four-round Feistel network over the 64-bit counter: a bijection, so ids never repeat,
    /// and keyed, so they cannot be told from one another without the key.
    fn permute(&self, n: u64) -> u64 {
        let (mut left, mut right) = halves(n);
        for round in 0..4 {
            (left, right) = (right, left ^ self.round(round, right));
        }
        join(left, right)
    }

    fn permute_back(&self, p: u64) -> u64 {
        let (mut left, mut right) = halves(p);
        for round in (0..4).rev() {
            (left, right) = (right ^ self.round(round, left), left);
        }
        join(left, right)
    }

    /// A round: the half mixed with the round's key by splitmix64's finalizer (every bit of
    /// the input moves about half the bits of the output).
    fn round(&self, round: u8, half: u32) -> u32 {
        let mut z = u64::from(half) ^ self.rounds[usize::from(round)];
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        halves(z ^ (z >> 31)).1
    }
}

/// An id as [`Ids::of`] writes it: ASCII, so always a `str`.
pub(super) fn id_str(id: &[u8; 17]) -> &str {
    std::str::from_utf8(id).unwrap_or_default()
}

fn halves(x: u64) -> (u32, u32) {
    let low = u32::try_from(x & u64::from(u32::MAX)).unwrap_or(0);
    let high = u32::try_from(x >> 32).unwrap_or(0);
    (high, low)
}

fn join(left: u32, right: u32) -> u64 {
    (u64::from(left) << 32) | u64::from(right)
}

/// The base-36 number an id writes.
fn parse_id(id: &str) -> Option<u64> {
    let digits = id.strip_prefix("ref_")?;
    if digits.len() != 13 {
        return None;
    }
    digits.bytes().try_fold(0u64, |acc, b| {
        let d = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'z' => b - b'a' + 10,
            _ => return None,
        };
        acc.checked_mul(36)?.checked_add(u64::from(d))
    })
}

#[cfg(test)]
mod tests {
    use super::{id_str, parse_id, Ids};

    #[test]
    fn ids_read_back_as_their_permuted_counters() {
        let ids = Ids::new([9, 0x9e37_79b9_7f4a_7c15, 3, u64::MAX]);
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let random = std::iter::repeat_with(move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        });
        for n in (0..2000)
            .chain([u64::MAX, u64::MAX - 1, 1 << 63])
            .chain(random.take(5000))
        {
            let id = ids.of(n);
            let id = id_str(&id);
            assert!(
                id.starts_with("ref_") && id[4..].bytes().all(|b| b.is_ascii_digit() || b.is_ascii_lowercase()),
                "{id}"
            );
            assert_eq!(parse_id(id), Some(ids.permute(n)), "{id}");
            assert_eq!(ids.permute_back(ids.permute(n)), n);
            assert_eq!(ids.counter(id), Some(n));
        }
        for not_an_id in [
            "ref_",
            "ref_000000000000",
            "ref_00000000000000",
            "ref_000000000000A",
            "REF_0000000000000",
            "ref_zzzzzzzzzzzzz",
            "zzzzzzzzzzzzzzzzz",
        ] {
            assert_eq!(ids.counter(not_an_id), None, "{not_an_id}");
        }
    }
}
