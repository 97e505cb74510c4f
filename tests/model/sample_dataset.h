// A valid dataset that uses every part of the model: nested sources, shared axes (regular 500 Hz,
// rational 44.1 kHz with start index and offset, irregular, ordinal), every dtype family, every
// annotation value kind and span on all five object kinds, one content on several objects,
// registered annotations, imports, and every task type. Tests break one thing and validate.
#pragma once

#include <memory>

#include "timef/model.h"

namespace timef::model::testing {

struct Sample {
  std::shared_ptr<Dataset> dataset;
  std::shared_ptr<Record> ecg_record;    // time span [0, 10 s), nested sources, 500 Hz axis
  std::shared_ptr<Record> hr_record;     // irregular axis shared by two signals, imported
  std::shared_ptr<Record> notes_record;  // ordinal signals only, no time span
  std::shared_ptr<Record> audio_record;  // 44.1 kHz rational axis
  std::shared_ptr<Source> device, ecg_source, leads;  // three levels in ecg_record
  std::shared_ptr<Signal> lead_i, lead_ii, rhythm;    // rhythm: enum
  std::shared_ptr<Signal> hr_a, hr_b;                 // nullable float64, shared irregular axis
  std::shared_ptr<Signal> notes, flags;               // str (text modality), bool; ordinal
  std::shared_ptr<Signal> audio;                      // int16, audio modality
  std::shared_ptr<AnnotationContent> af_label;        // carried by a record and a signal
  std::shared_ptr<Annotation> af_on_record, af_on_lead, hr_tags, vocabulary;
  std::shared_ptr<Task> classification, answer, scalar, localization, forecasting, editing,
      generation, correspondence, empty_answer;
};

Sample MakeSample();

}  // namespace timef::model::testing
