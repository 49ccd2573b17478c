const DAY_MS = 86_400_000;
/** 0001-01-01 and 9999-12-31, where `toISOString` writes four-digit years without a sign. */
const FIRST_MS = -62_135_596_800_000;
const LAST_MS = 253_402_300_799_999;

/**
 * `new Date(ms).toISOString()`, written from integer arithmetic: about a tenth of the cost,
 * which matters because every listed file carries its modification time and a full listing of
 * a large workspace formats one per file. Times outside years 1-9999 take `toISOString` itself.
 */
export function isoDate(ms: number): string {
	if (!(ms >= FIRST_MS && ms <= LAST_MS)) {
		return new Date(ms).toISOString(); // also NaN: throws as toISOString does
	}
	const t = Math.trunc(ms) + 0; // Date truncates toward zero; `+ 0` turns -0 into 0
	const second = Math.floor(t / 1000);
	// Files written together share a second, and a listing formats them one after another: the
	// text up to the second is kept from the last call, so most times cost one concatenation
	// onto a string the encoder has already flattened.
	if (second !== lastSecond) {
		lastSecond = second;
		lastUpToSecond = upToSecond(second * 1000);
	}
	return lastUpToSecond + MILLIS_Z[t - second * 1000];
}

/**
 * The time of years 1-9999 nearest to `ms`. MCP's `lastModified` is an ISO 8601 date-time, whose
 * year has four digits (SDK clients check it and reject a whole page over one entry), while a
 * file system with 64-bit times (tmpfs, btrfs, ZFS) can hold any year, even one past what
 * `Date` holds (there `toISOString` throws, and the page fails on the server).
 */
export function inFourDigitYears(ms: number): number {
	return ms < FIRST_MS ? FIRST_MS : ms > LAST_MS ? LAST_MS : ms;
}

let lastSecond = Number.NaN;
let lastUpToSecond = '';
/** '.000Z' to '.999Z', the end of every date. */
const MILLIS_Z = Array.from({ length: 1000 }, (_, millis) => `.${pad(millis, 3)}Z`);

/** 'YYYY-MM-DDTHH:MM:SS' of a whole second in years 1-9999. */
function upToSecond(t: number): string {
	const days = Math.floor(t / DAY_MS);
	let rest = t - days * DAY_MS;
	// Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
	const z = days + 719_468;
	const era = Math.floor(z / 146_097);
	const doe = z - era * 146_097;
	const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
	const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
	const mp = Math.floor((5 * doy + 2) / 153);
	const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
	const month = mp < 10 ? mp + 3 : mp - 9;
	const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
	const hours = Math.floor(rest / 3_600_000);
	rest -= hours * 3_600_000;
	const minutes = Math.floor(rest / 60_000);
	rest -= minutes * 60_000;
	const seconds = Math.floor(rest / 1000);
	return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}`;
}

function pad(n: number, width: number): string {
	const s = String(n);
	return s.length >= width ? s : '0'.repeat(width - s.length) + s;
}
