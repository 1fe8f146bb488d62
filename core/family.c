/* core: what every user of the family interface needs beside the table. */
#include <string.h>

#include "family.h"

int family_knob_find(const family_ops *ops, const char *name)
{
	int k;

	for (k = 0; k < ops->n_knobs; k++)
		if (!strcmp(ops->knobs[k].name, name))
			return k;
	return -1;
}
