/*
 * bench_grasp.h: tagk-bench's paper 003 experiments (bench/sim/grasp.h):
 * grasp (one run as a log) and grasp-table (the paper's Tables II and III).
 */
#ifndef TAGK_BENCH_GRASP_H
#define TAGK_BENCH_GRASP_H

#include "../formats/mbmodel.h"
#include "sim/grasp.h"

#define GRASP_DEFAULT_MODEL "panda" /* datasets/panda.model, found by cmdio_robot_path */

int bench_grasp(int argc, char **argv);
int bench_grasp_table(int argc, char **argv); /* grasp_table.c */
/* Read the robot model at path (a name in datasets/ or a file); dies with
 * the parser's message. */
void grasp_load_model(const char *path, mbmodel *mm);
/* --motion's argument: task or joint; dies on anything else. */
tagk_grasp_motion grasp_motion_arg(const char *s);

#endif
