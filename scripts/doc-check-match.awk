# SPDX-License-Identifier: GPL-2.0-only
# scripts/doc-check.sh's comparison (docs/doc-check.md): does a command's
# output match what the page shows?
#   a page line "..." (alone, or followed by blanks and a note) stands for
#   any number of output lines; "[...]" inside a line for any text in it.
# Trailing blanks of every line and trailing empty lines are ignored.
#   awk -v mode=check  -v expf=EXPECTED -v act=ACTUAL -f doc-check-match.awk
#       exit 0 when they match, 1 when not
#   awk -v mode=update -v expf=EXPECTED -v act=ACTUAL -f doc-check-match.awk
#       print what the page should show: the output itself, with the page's
#       elisions kept where the lines around them still match once numbers
#       are ignored; exit 0, or 3 when a line with "[...]" no longer
#       matches (printed as it was: fix it by hand), or 4 when the page's
#       lines cannot be placed in the output at all (nothing printed)

function rstrip(s) {
	sub(/[ \t]+$/, "", s)
	return s
}

function readlines(path, arr,    n, line) {
	n = 0
	while ((getline line < path) > 0)
		arr[++n] = rstrip(line)
	close(path)
	while (n > 0 && arr[n] == "")
		n--
	return n
}

function is_gap(s) {
	return s ~ /^[ \t]*(\.\.\.|…)([ \t].*)?$/
}

function norm(s) {
	gsub(/[0-9]+([.,][0-9]+)*/, "0", s)
	gsub(/[ \t]+/, " ", s)
	return s
}

# does line @a match page line @p ("[...]": any text)?
function line_match(p, a,    n, f, i, pos, at) {
	if (fuzzy) {
		p = norm(p)
		a = norm(a)
	}
	if (index(p, "[...]") == 0)
		return p == a
	n = split(p, f, /\[\.\.\.\]/)
	if (length(a) < length(f[1]) + length(f[n]))
		return 0
	if (substr(a, 1, length(f[1])) != f[1])
		return 0
	if (substr(a, length(a) - length(f[n]) + 1) != f[n])
		return 0
	pos = length(f[1]) + 1
	for (i = 2; i < n; i++) {
		at = index(substr(a, pos, length(a) - length(f[n]) - pos + 1), f[i])
		if (!at)
			return 0
		pos += at - 1 + length(f[i])
	}
	return 1
}

# page lines i.. against output lines j..; MAP[i] = the output line of page line i
function m(i, j,    k) {
	if (i > np)
		return j > na
	if (is_gap(P[i])) {
		for (k = j; k <= na + 1; k++)
			if (m(i + 1, k)) {
				MAP[i] = k
				return 1
			}
		return 0
	}
	if (j > na || !line_match(P[i], A[j]))
		return 0
	if (m(i + 1, j + 1)) {
		MAP[i] = j
		return 1
	}
	return 0
}

# rows: every table line of the output ("|" first) is a line of the page's
# table, in order; rows-update prints the page's table with each such line
# put in place of the one equal to it once numbers are ignored (exit 3 when
# one has none)
function rows(update,    i, j, k, rc, done) {
	j = 1
	rc = 0
	for (i = 1; i <= na; i++) {
		if (A[i] !~ /^\|/)
			continue
		for (k = j; k <= np && P[k] != A[i]; k++)
			;
		if (k <= np) {
			j = k + 1
			continue
		}
		if (!update)
			return 1
		done = 0
		for (k = 1; k <= np; k++)
			if (norm(P[k]) == norm(A[i])) {
				P[k] = A[i]
				done = 1
				break
			}
		if (!done)
			rc = 3
	}
	if (update)
		for (k = 1; k <= np; k++)
			print P[k]
	return rc
}

BEGIN {
	np = readlines(expf, P)
	na = readlines(act, A)
	if (mode == "rows")
		exit rows(0)
	if (mode == "rows-update")
		exit rows(1)
	elided = 0
	for (i = 1; i <= np; i++)
		if (is_gap(P[i]) || index(P[i], "[...]"))
			elided = 1
	fuzzy = 0
	ok = m(1, 1)
	if (mode == "check")
		exit !ok
	if (ok) {
		for (i = 1; i <= np; i++)
			print P[i]
		exit 0
	}
	if (!elided) {
		for (j = 1; j <= na; j++)
			print A[j]
		exit 0
	}
	fuzzy = 1
	if (!m(1, 1))
		exit 4
	fuzzy = 0
	rc = 0
	for (i = 1; i <= np; i++) {
		if (is_gap(P[i]))
			print P[i]
		else if (index(P[i], "[...]")) {
			print P[i]
			if (!line_match(P[i], A[MAP[i]]))
				rc = 3
		} else
			print A[MAP[i]]
	}
	exit rc
}
