"""The eight task classes (defined by the native module, listed here in one place)."""

from ._timef import (  # noqa: F401
    AnswerTask, ClassificationTask, ForecastingTask, ScalarPredictionTask, Task,
    TemporalLocalizationTask, TsCorrespondenceTask, TsEditingTask, TsGenerationTask,
)

TASK_CLASSES = (ClassificationTask, AnswerTask, ScalarPredictionTask, TemporalLocalizationTask,
                ForecastingTask, TsEditingTask, TsGenerationTask, TsCorrespondenceTask)
