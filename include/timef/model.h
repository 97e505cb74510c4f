// The in-memory TimeF dataset model (namespace timef::model).
#pragma once

#include "timef/model/annotation.h"
#include "timef/model/dataset.h"
#include "timef/model/dump.h"
#include "timef/model/ids.h"
#include "timef/model/import_marker.h"
#include "timef/model/record.h"
#include "timef/model/schema.h"
#include "timef/model/signal.h"
#include "timef/model/source.h"
#include "timef/model/span.h"
#include "timef/model/spec.h"
#include "timef/model/task.h"
#include "timef/model/task_target.h"
#include "timef/model/text.h"
#include "timef/model/time_axis.h"
#include "timef/model/values.h"
