// Helpers for the model tests: assert that a call raises ValidationError naming an object/field.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "timef/error.h"

namespace timef::model::testing {

// Runs `call` and checks it throws ValidationError whose object contains `want_object` and whose
// field (ErrorSite.where) equals `want_where`; both must appear in the message too.
#define EXPECT_VALIDATION_ERROR(call, want_object, want_where)                        \
  do {                                                                                \
    try {                                                                             \
      call;                                                                           \
      ADD_FAILURE() << "expected ValidationError from " #call;                        \
    } catch (const ::timef::ValidationError& error) {                                 \
      EXPECT_THAT(error.object(), ::testing::HasSubstr(want_object)) << error.what(); \
      EXPECT_EQ(error.where(), want_where) << error.what();                           \
      EXPECT_THAT(std::string(error.what()), ::testing::HasSubstr(want_object));      \
      EXPECT_THAT(std::string(error.what()), ::testing::HasSubstr(want_where));       \
    }                                                                                 \
  } while (false)

// Same, and the problem text must contain `want_problem`.
#define EXPECT_VALIDATION_ERROR_MSG(call, want_object, want_where, want_problem)        \
  do {                                                                                  \
    try {                                                                               \
      call;                                                                             \
      ADD_FAILURE() << "expected ValidationError from " #call;                          \
    } catch (const ::timef::ValidationError& error) {                                   \
      EXPECT_THAT(error.object(), ::testing::HasSubstr(want_object)) << error.what();   \
      EXPECT_EQ(error.where(), want_where) << error.what();                             \
      EXPECT_THAT(error.problem(), ::testing::HasSubstr(want_problem)) << error.what(); \
    }                                                                                   \
  } while (false)

}  // namespace timef::model::testing
