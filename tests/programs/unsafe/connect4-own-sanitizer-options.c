/* APS105 Lab 6: Connect Four on a 6x6 board. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

// A student's own sanitizer options (as a course's handout might show
// them): the checked build, which brings referee's, cannot be linked.
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }

#define ROWS 6
#define COLS 6
#define EMPTY '-'
#define RED 'R'
#define YELLOW 'Y'

// Prints the board with the highest row at the top.
void printBoard(char gameBoard[][COLS]) {
  for (int row = ROWS - 1; row >= 0; row--) {
    for (int col = 0; col < COLS; col++) {
      printf("%c", gameBoard[row][col]);
    }
    printf("\n");
  }
}

// Prompts until the player enters a column that is on the board and not full.
int getInput(char gameBoard[][COLS], char turn) {
  int col;
  while (true) {
    if (turn == RED) {
      printf("Red, please enter a valid column number (0-5): ");
    } else {
      printf("Yellow, please enter a valid column number (0-5): ");
    }
    int read = scanf("%d", &col);
    if (read == EOF) {
      exit(0); // no more input
    }
    if (read != 1) {
      scanf("%*s"); // skip a word that is not a number
      continue;
    }
    if (col >= 0 && col < COLS && gameBoard[ROWS - 1][col] == EMPTY) {
      return col;
    }
  }
}

// Drops the piece to the lowest empty row of the column.
void insertPiece(char gameBoard[][COLS], int columnEntered, char turn) {
  for (int row = 0; row < ROWS; row++) {
    if (gameBoard[row][columnEntered] == EMPTY) {
      gameBoard[row][columnEntered] = turn;
      return;
    }
  }
}

void switchTurn(char *turn) {
  if (*turn == RED) {
    *turn = YELLOW;
  } else {
    *turn = RED;
  }
}

// True if four equal pieces start at (row, col) going in (rowDir, colDir).
bool checkOneDirection(char gameBoard[][COLS], int row, int col, int rowDir,
                       int colDir) {
  char piece = gameBoard[row][col];
  if (piece == EMPTY) {
    return false;
  }
  for (int i = 1; i < 4; i++) {
    int r = row + i * rowDir;
    int c = col + i * colDir;
    if (r < 0 || r >= ROWS || c < 0 || c >= COLS) {
      return false;
    }
    if (gameBoard[r][c] != piece) {
      return false;
    }
  }
  return true;
}

bool checkWinner(char gameBoard[][COLS]) {
  for (int row = 0; row < ROWS; row++) {
    for (int col = 0; col < COLS; col++) {
      if (checkOneDirection(gameBoard, row, col, 0, 1) ||
          checkOneDirection(gameBoard, row, col, 1, 0) ||
          checkOneDirection(gameBoard, row, col, 1, 1) ||
          checkOneDirection(gameBoard, row, col, 1, -1)) {
        return true;
      }
    }
  }
  return false;
}

bool isFull(char gameBoard[][COLS]) {
  for (int col = 0; col < COLS; col++) {
    if (gameBoard[ROWS - 1][col] == EMPTY) {
      return false;
    }
  }
  return true;
}

int main(void) {
  char gameBoard[ROWS][COLS];
  for (int row = 0; row < ROWS; row++) {
    for (int col = 0; col < COLS; col++) {
      gameBoard[row][col] = EMPTY;
    }
  }

  char turn = RED;
  while (true) {
    printBoard(gameBoard);
    int col = getInput(gameBoard, turn);
    insertPiece(gameBoard, col, turn);
    if (checkWinner(gameBoard)) {
      if (turn == RED) {
        printf("Red wins!\n");
      } else {
        printf("Yellow wins!\n");
      }
      break;
    }
    if (isFull(gameBoard)) {
      printf("It's a tie\n");
      break;
    }
    switchTurn(&turn);
  }
  printf("Final board: \n");
  printBoard(gameBoard);
  return 0;
}
