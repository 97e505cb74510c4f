// WriteValues with signals handed in pieces (SignalInput::pieces, model/values.h): the files are
// byte for byte those written from the whole arrays, whatever the piece sizes; bad pieces are
// ValidationErrors; the pieces are never gathered (the writer's hold on each piece ends with it).
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>

#include "values_test_support.h"

namespace timef::values {
namespace {

namespace fs = std::filesystem;
using model::DType;
using model::ValueArray;
using testing::MakeInput;
using testing::MakeNdSpec;
using testing::MakeSpec;
using testing::ScratchDir;

// Every file under `dir` (relative path → bytes).
std::map<std::string, std::string> Files(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    out[fs::relative(entry.path(), dir).generic_string()] =
        std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return out;
}

// `input` with its whole array handed in pieces of `piece_steps` steps (the last one shorter),
// plus an empty piece at the start and the end.
SignalInput InPieces(SignalInput input, std::int64_t piece_steps) {
  std::shared_ptr<const ValueArray> whole = input.load();
  input.load = nullptr;
  const std::int64_t width = std::max<std::int64_t>(1, input.spec->StepWidth());
  input.pieces = [whole, piece_steps, width](const model::PieceSink& emit) {
    const std::int64_t steps = whole->size() / width;
    emit(whole->SliceSteps(0, 0, width));
    for (std::int64_t at = 0; at < steps; at += piece_steps) {
      emit(whole->SliceSteps(at, std::min(steps, at + piece_steps), width));
    }
    emit(whole->SliceSteps(steps, steps, width));
  };
  return input;
}

// Signal 1, "s", of `spec`: n_values steps handed by `pieces`.
SignalInput PieceInput(std::shared_ptr<const model::Spec> spec, std::int64_t n_values,
                       model::PieceLoader pieces) {
  SignalInput input;
  input.signal_id = 1;
  input.name = "s";
  input.spec = std::move(spec);
  input.n_values = n_values;
  input.pieces = std::move(pieces);
  return input;
}

// The signals of one test release: several spec_types, nulls, enum, str, a multi-chunk signal.
std::vector<SignalInput> Inputs(bool zarr) {
  std::vector<SignalInput> inputs;
  std::vector<std::int8_t> bytes(5000);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::int8_t>(i * 7 % 251);
  inputs.push_back(MakeInput(1, "a", MakeSpec("i8", DType::kInt8), ValueArray::Of(bytes)));
  inputs.push_back(MakeInput(2, "b", MakeSpec("i8", DType::kInt8), ValueArray::Of(bytes)));
  std::vector<float> floats(3000);
  std::vector<std::uint8_t> validity(3000, 1);
  for (std::size_t i = 0; i < floats.size(); ++i) {
    floats[i] = static_cast<float>(i) * 0.5f;
    if (i % 97 < 40) validity[i] = 0;  // runs of nulls, and whole pieces without any
  }
  inputs.push_back(
      MakeInput(3, "f", MakeSpec("f32", DType::kFloat32, true), ValueArray::Of(floats, validity)));
  std::vector<std::int32_t> codes(2000);
  for (std::size_t i = 0; i < codes.size(); ++i) codes[i] = static_cast<std::int32_t>(i % 3);
  inputs.push_back(MakeInput(4, "e", MakeSpec("rhythm", DType::kEnum, false, {"N", "AF", "VT"}),
                             ValueArray::EnumCodes(codes)));
  if (zarr) {
    std::vector<std::int16_t> grid(2 * 3 * 700);
    for (std::size_t i = 0; i < grid.size(); ++i) grid[i] = static_cast<std::int16_t>(i);
    inputs.push_back(
        MakeInput(5, "nd", MakeNdSpec("grid", DType::kInt16, false, {2, 3}), ValueArray::Of(grid)));
    inputs.back().n_values = 700;  // steps of 2 × 3 scalars
  } else {
    std::vector<std::string> notes(1200);
    for (std::size_t i = 0; i < notes.size(); ++i) notes[i] = std::string(i % 13, 'x');
    inputs.push_back(MakeInput(5, "s", MakeSpec("note", DType::kStr), ValueArray::Of(notes)));
  }
  return inputs;
}

ValuesOptions SmallBudgets(bool zarr) {
  ValuesOptions options;
  options.chunk_max_bytes = 1000;  // several chunks per signal, row groups, shards
  options.row_group_target_bytes = 4000;
  options.shard_target_bytes = 9000;
  options.compression_level = 3;
  if (zarr) options.backend = manifest::ValuesBackend::kZarr;
  return options;
}

class PiecesTest : public ::testing::TestWithParam<bool> {};

TEST_P(PiecesTest, FilesAreTheSameBytesForAnyPieceSize) {
  const bool zarr = GetParam();
  ScratchDir whole_dir;
  const ValuesResult whole = WriteValues(whole_dir.path(), Inputs(zarr), SmallBudgets(zarr));
  const std::map<std::string, std::string> expected = Files(whole_dir.path());
  ASSERT_GT(expected.size(), 3u);
  // 1 step, a prime, about a chunk, a chunk and one, and more than any signal.
  for (std::int64_t piece : {1, 7, 333, 1001, 100000}) {
    SCOPED_TRACE("piece steps " + std::to_string(piece));
    ScratchDir dir;
    std::vector<SignalInput> inputs;
    for (SignalInput& input : Inputs(zarr)) inputs.push_back(InPieces(std::move(input), piece));
    const ValuesResult result = WriteValues(dir.path(), std::move(inputs), SmallBudgets(zarr));
    EXPECT_EQ(Files(dir.path()), expected);
    ASSERT_EQ(result.chunks.size(), whole.chunks.size());
    for (const auto& [id, chunks] : whole.chunks) {
      const std::vector<ChunkLocator>& got = result.chunks.at(id);
      ASSERT_EQ(got.size(), chunks.size()) << "signal " << id;
      for (std::size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(got[i].value_path, chunks[i].value_path);
        EXPECT_EQ(got[i].major, chunks[i].major);
        EXPECT_EQ(got[i].minor, chunks[i].minor);
        EXPECT_EQ(got[i].n_values, chunks[i].n_values);
      }
    }
    EXPECT_EQ(result.encodings, whole.encodings);
  }
}

TEST_P(PiecesTest, PiecesPastOrShortOfNValuesAreValidationErrors) {
  const bool zarr = GetParam();
  auto spec = MakeSpec("i16", DType::kInt16);
  for (std::int64_t extra : {-1, 1}) {
    ScratchDir dir;
    SignalInput input = PieceInput(spec, 100, [extra](const model::PieceSink& emit) {
      emit(ValueArray::Of(std::vector<std::int16_t>(60, 1)));
      emit(ValueArray::Of(std::vector<std::int16_t>(static_cast<std::size_t>(40 + extra), 2)));
    });
    std::vector<SignalInput> inputs;
    inputs.push_back(std::move(input));
    try {
      WriteValues(dir.path(), std::move(inputs), SmallBudgets(zarr));
      FAIL() << "expected ValidationError for " << extra;
    } catch (const ValidationError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(extra > 0 ? "past n_values" : "the pieces hold 99 steps"),
                std::string::npos)
          << what;
    }
  }
}

TEST_P(PiecesTest, APieceOfTheWrongDtypeOrValidityIsAValidationError) {
  const bool zarr = GetParam();
  auto spec = MakeSpec("f", DType::kFloat32, true);
  std::vector<std::function<void(const model::PieceSink&)>> bad = {
      [](const model::PieceSink& emit) { emit(ValueArray::Of(std::vector<double>(10, 1.0))); },
      [](const model::PieceSink& emit) {
        emit(ValueArray::Of(std::vector<float>(10, 1.0f), std::vector<std::uint8_t>(9, 1)));
      },
  };
  for (const auto& pieces : bad) {
    ScratchDir dir;
    SignalInput input = PieceInput(spec, 10, pieces);
    std::vector<SignalInput> inputs;
    inputs.push_back(std::move(input));
    EXPECT_THROW(WriteValues(dir.path(), std::move(inputs), SmallBudgets(zarr)), ValidationError);
  }
}

TEST_P(PiecesTest, ALoaderErrorPropagatesAndPiecesAreNotKept) {
  const bool zarr = GetParam();
  ScratchDir dir;
  auto spec = MakeSpec("f", DType::kFloat64);
  // Each piece is remembered weakly: once the next one is made, the writer holds no reference to
  // the one before (only its steps copied into the current chunk).
  std::vector<std::weak_ptr<ValueArray>> made;
  int still_alive = 0;
  SignalInput input = PieceInput(spec, 10000, [&](const model::PieceSink& emit) {
    for (int i = 0; i < 10; ++i) {
      for (const auto& earlier : made) still_alive += earlier.expired() ? 0 : 1;
      auto piece = std::make_shared<ValueArray>(ValueArray::Of(std::vector<double>(1000, i)));
      made.push_back(piece);
      emit(*piece);
      piece.reset();
      if (i == 7) throw std::runtime_error("source gone");
    }
  });
  std::vector<SignalInput> inputs;
  inputs.push_back(std::move(input));
  try {
    WriteValues(dir.path(), std::move(inputs), SmallBudgets(zarr));
    FAIL() << "expected the loader's error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "source gone");
  }
  EXPECT_EQ(made.size(), 8u);
  EXPECT_EQ(still_alive, 0);
}

INSTANTIATE_TEST_SUITE_P(Backends, PiecesTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "Zarr" : "Parquet"; });

}  // namespace
}  // namespace timef::values
