// Assembles hello-zarr: hello-world without str values, plus an N-D spectrogram record.
#include <cmath>

#include "demo/hello_parts.h"
#include "timef/demo.h"

namespace timef::demo {
namespace {

using internal::kSecond;
constexpr int64_t kSpectrogramRateHz = 4;

// Two channels × eight frequency bins per step: a deterministic closed form.
std::vector<float> SpectrogramValues() {
  const int64_t width = kSpectrogramShape[0] * kSpectrogramShape[1];
  std::vector<float> values(static_cast<size_t>(kSpectrogramSteps * width));
  for (int64_t step = 0; step < kSpectrogramSteps; ++step) {
    for (int64_t channel = 0; channel < kSpectrogramShape[0]; ++channel) {
      for (int64_t bin = 0; bin < kSpectrogramShape[1]; ++bin) {
        const double power =
            std::exp(-0.3 * static_cast<double>(bin)) *
            (1.0 + 0.5 * std::sin(0.2 * static_cast<double>(step) + static_cast<double>(channel)));
        values[static_cast<size_t>(step * width + channel * kSpectrogramShape[1] + bin)] =
            static_cast<float>(power);
      }
    }
  }
  return values;
}

}  // namespace

std::unique_ptr<model::Dataset> BuildHelloZarr() {
  auto dataset =
      std::make_unique<model::Dataset>(std::string(kHelloZarrId), std::string(kHelloZarrVersion));
  internal::HelloParts parts = internal::AddHelloRecords(*dataset, /*with_text=*/false);
  internal::AddHelloTasks(*dataset, parts);
  auto record = dataset->AddRecord();
  record->set_start_time_us(1'700'000'000'000'000);
  record->set_time_span(model::TimeInterval{0, kSpectrogramSteps / kSpectrogramRateHz * kSecond});
  auto source = record->AddSource("spectral_analyzer");
  auto spec = model::Spec::Make({.spec_type = "spectrogram",
                                 .name = "Spectrogram",
                                 .unit = "1",
                                 .dtype = model::DType::kFloat32,
                                 .value_shape = {kSpectrogramShape[0], kSpectrogramShape[1]},
                                 .dimension_names = {"channel", "freq"}});
  source->AddSignal(std::make_shared<model::Signal>(
      "spectrogram", std::move(spec), model::TimeAxis::RegularFromRate(kSpectrogramRateHz),
      model::ValueArray::Of(SpectrogramValues())));
  record->Annotate(parts.synthetic);
  dataset->AssignIds();
  dataset->Validate();
  return dataset;
}

manifest::Card HelloZarrCard() {
  manifest::Card card = HelloWorldCard();
  card.dataset_id = std::string(kHelloZarrId);
  card.dataset_version = std::string(kHelloZarrVersion);
  card.name = "TimeF hello world on Zarr";
  card.description =
      "The hello-world dataset on the Zarr v3 values backend: every signal of hello world but "
      "the diary text, plus a two-channel spectrogram with eight frequency bins per step.";
  card.citation = "The TimeF authors. TimeF hello world on Zarr, version 1.0.0.";
  return card;
}

WriteOptions HelloZarrWriteOptions() {
  WriteOptions options = HelloWorldWriteOptions();
  options.values_backend = manifest::ValuesBackend::kZarr;
  return options;
}

}  // namespace timef::demo
