# nvdev guest report: dmesg, PCI, DRM and backlight state and what the
# init script's steps wrote to /tmp, as one JSON object on stdout.
#
# One awk process reads every file itself: under TCG each process the
# shell starts costs milliseconds of guest time, and a report built from
# a pipeline per value took a third of a boot.  The init script passes
#   driver, rc        the module it loaded and modprobe's exit status
#   pci, drm, bl      the entries of /sys/bus/pci/devices, /sys/class/drm
#                     (card*-*) and /sys/class/backlight, space-separated
#   links             a file of `ls -l` lines of the driver/device links
#   edid              a file of `wc -c` lines of the connectors' EDIDs
# Files the steps did not write come out as null.

# one line as the inside of a JSON string (the test first: most lines
# need nothing, and a substitution costs)
function esc(s) {
	if (s ~ /[\\"[:cntrl:]]/) {
		gsub(/\\/, "\\\\", s)
		gsub(/"/, "\\\"", s)
		gsub(/\t/, "\\t", s)
		gsub(/[[:cntrl:]]/, "", s)
	}
	return s
}

# print the lines of the files @f1 and (if not "") @f2 as one JSON
# array, or @missing if @f1 cannot be read.  Printed as read: awk's
# string concatenation is what made a report slow.
function lines(f1, missing, f2,    l, n, r, f) {
	if ((r = (getline l < f1)) < 0) {
		printf "%s", missing
		return
	}
	printf "["
	n = 0
	for (f = f1; f != ""; f = (f == f1) ? f2 : "") {
		if (f != f1)
			r = (getline l < f)
		while (r > 0) {
			printf "%s\"%s\"", (n++ ? ", " : ""), esc(l)
			r = (getline l < f)
		}
		close(f)
	}
	printf "]"
}

# a (sysfs) file as one JSON string: its first 4 KiB, newlines as spaces,
# trailing spaces dropped; null if it cannot be read
function str(f,    s, l, n, r) {
	s = ""
	n = 0
	while ((r = (getline l < f)) > 0)
		s = s (n++ ? " " : "") l
	close(f)
	if (r < 0 && n == 0)
		return "null"
	s = substr(s, 1, 4096)
	sub(/ +$/, "", s)
	gsub(/\\/, "\\\\", s)
	gsub(/"/, "\\\"", s)
	return "\"" s "\""
}

function base(p) {
	sub(/\/+$/, "", p)
	sub(/.*\//, "", p)
	return p
}

# the target's last component of the symlink @p (from the `ls -l` lines)
function link(p) {
	return (p in target) ? "\"" base(target[p]) "\"" : "null"
}

BEGIN {
	while ((getline l < links) > 0) {
		i = index(l, " -> ")
		if (!i)
			continue
		name = substr(l, 1, i - 1)
		sub(/.* \//, "/", name)
		target[name] = substr(l, i + 4)
	}
	close(links)
	while ((getline l < edid) > 0) {
		split(l, w, " ")
		edid_bytes[w[2]] = w[1] + 0
	}
	close(edid)

	printf "{\"driver\": \"%s\", \"modprobe_rc\": %d,\n", driver, rc
	printf " \"modprobe_output\": "
	lines("/tmp/modprobe.out", "[]")
	printf ",\n \"cmdline\": %s", str("/proc/cmdline")

	printf ",\n \"pci\": ["
	n = split(pci, d, " ")
	for (i = 1; i <= n; i++)
		printf "%s{\"slot\": \"%s\", \"vendor\": %s, \"device\": %s, \"class\": %s, \"driver\": %s}",
		    (i > 1 ? ", " : ""), base(d[i]), str(d[i] "/vendor"),
		    str(d[i] "/device"), str(d[i] "/class"), link(d[i] "/driver")

	printf "],\n \"drm\": ["
	n = split(drm, d, " ")
	for (i = 1; i <= n; i++) {
		printf "%s{\"name\": \"%s\", \"status\": %s, \"enabled\": %s, \"edid_bytes\": %d, \"modes\": ",
		    (i > 1 ? ", " : ""), base(d[i]), str(d[i] "/status"),
		    str(d[i] "/enabled"), edid_bytes[d[i] "/edid"]
		lines(d[i] "/modes", "[]")
		printf "}"
	}

	printf "],\n \"backlight\": ["
	n = split(bl, d, " ")
	for (i = 1; i <= n; i++)
		printf "%s{\"name\": \"%s\", \"type\": %s, \"max_brightness\": %s, \"brightness\": %s, \"actual_brightness\": %s, \"device\": \"%s\"}",
		    (i > 1 ? ", " : ""), base(d[i]), str(d[i] "/type"),
		    str(d[i] "/max_brightness"), str(d[i] "/brightness"),
		    str(d[i] "/actual_brightness"), base(target[d[i] "/device"])

	printf "],\n \"backlight_log\": "
	if ((getline l < "/tmp/backlight.out") >= 0) {
		close("/tmp/backlight.out")
		if ((getline l < "/tmp/backlight.err") >= 0) {
			close("/tmp/backlight.err")
			lines("/tmp/backlight.err", "", "/tmp/backlight.out")
		} else
			lines("/tmp/backlight.out", "")
	} else
		printf "null"
	n = split("fb /proc/fb [] modetest /tmp/modetest.out null " \
	    "fbtext /tmp/fbtext.out str nvaccel /tmp/nvaccel.out null " \
	    "vbltest /tmp/vbltest.out null alarm /tmp/alarm.out null " \
	    "interrupts /tmp/interrupts.out [] rebind /tmp/rebind.out null " \
	    "kmemleak /tmp/kmemleak.out null " \
	    "modetest_connectors /tmp/modetest-c.out null " \
	    "modetest2 /tmp/modetest2.out null modetest3 /tmp/modetest3.out null " \
	    "modetest4 /tmp/modetest4.out null " \
	    "dmesg /tmp/dmesg.out []", w, " ")
	for (i = 1; i < n; i += 3) {
		printf ",\n \"%s\": ", w[i]
		if (w[i + 2] == "str")
			printf "%s", str(w[i + 1])
		else
			lines(w[i + 1], w[i + 2])
	}
	printf "}\n"
}
