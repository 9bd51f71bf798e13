#include "trace/trace-hw_display_nvdev.h"
