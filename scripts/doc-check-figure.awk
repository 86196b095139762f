# SPDX-License-Identifier: GPL-2.0-only
# scripts/doc-check.sh's check of a figure stated in prose (docs/doc-check.md):
# the figure "TEXT" is literal text around a number, e.g. "elapsed 0.0875" or
# "2.024 usecs/op"; the output must hold that text with a number there that
# rounds to the figure at the figure's decimals, and the page's text around
# the marker must state the figure.
#   awk -v text=TEXT -v act=OUTPUT -v ctx=PAGE_TEXT -f doc-check-figure.awk
# prints nothing and exits 0, or prints what is wrong and exits 1

function trim(s) {
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	return s
}

function decimals(s,    d) {
	d = index(s, ".")
	return d ? length(s) - d : 0
}

BEGIN {
	NUM = "[-+]?[0-9]+(\\.[0-9]+)?"
	# the figure: the last number of TEXT; prefix and suffix around it
	s = text
	fig = ""
	pos = 0
	off = 0
	while (match(s, NUM)) {
		fig = substr(s, RSTART, RLENGTH)
		pos = off + RSTART
		off += RSTART + RLENGTH - 1
		s = substr(s, RSTART + RLENGTH)
	}
	if (fig == "") {
		print "figure '" text "' holds no number"
		exit 1
	}
	prefix = trim(substr(text, 1, pos - 1))
	suffix = trim(substr(text, pos + length(fig)))
	d = decimals(fig)
	found = ""
	while (found == "" && (getline line < act) > 0) {
		rest = line
		off = 0
		while (match(rest, NUM)) {
			x = substr(rest, RSTART, RLENGTH)
			before = trim(substr(line, 1, off + RSTART - 1))
			after = trim(substr(line, off + RSTART + RLENGTH))
			off += RSTART + RLENGTH - 1
			rest = substr(rest, RSTART + RLENGTH)
			if (prefix != "" && substr(before, length(before) - length(prefix) + 1) != prefix)
				continue
			if (suffix != "" && substr(after, 1, length(suffix)) != suffix)
				continue
			found = x
			break
		}
	}
	close(act)
	if (found == "") {
		print "figure '" text "': the output has no '" prefix (prefix == "" ? "" : " ") "N" (suffix == "" ? "" : " ") suffix "'"
		exit 1
	}
	if (sprintf("%." d "f", found + 0) != fig && !(found == fig)) {
		print "figure '" text "': the output has " found " (" sprintf("%." d "f", found + 0) " at " d " decimals), the page " fig
		exit 1
	}
	# the page's text around the marker states it
	stated = 0
	while ((getline line < ctx) > 0) {
		rest = line
		while ((i = index(rest, fig)) > 0) {
			b = i > 1 ? substr(rest, i - 1, 1) : ""
			a = substr(rest, i + length(fig), 1)
			if (b !~ /[0-9.]/ && (a !~ /[0-9]/) && !(a == "." && substr(rest, i + length(fig) + 1, 1) ~ /[0-9]/)) {
				stated = 1
				break
			}
			rest = substr(rest, i + length(fig))
		}
		if (stated)
			break
	}
	close(ctx)
	if (!stated) {
		print "figure '" text "': " fig " matches the output, but the text around the marker does not state it"
		exit 1
	}
	exit 0
}
