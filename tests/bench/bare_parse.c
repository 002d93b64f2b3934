/*
 * bare_parse.c: the baseline of `make bench` (spec/core.md 17): a bare C
 * process that reads each file named on its command line and runs it
 * through libyaml's event parser, doing nothing else. infragate's lint over
 * the same files is measured against it in the same run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <yaml.h>

static int parse(const char *path)
{
	yaml_parser_t p;
	yaml_event_t ev;
	FILE *f = fopen(path, "rb");
	int done = 0, rc = 0;

	if (!f)
		return -1;
	yaml_parser_initialize(&p);
	yaml_parser_set_input_file(&p, f);
	while (!done) {
		if (!yaml_parser_parse(&p, &ev)) {
			rc = -1;
			break;
		}
		done = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	fclose(f);
	return rc;
}

int main(int argc, char **argv)
{
	int i, bad = 0;

	for (i = 1; i < argc; i++)
		bad += parse(argv[i]) < 0;
	return bad ? 1 : 0;
}
