/* BUG: after the rotation only the player who moved is checked for five. */
/* Prog 3: Pentago.  Two players place pieces on a 6x6 board and rotate a
   quadrant after each move; the first to get five in a row wins. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

#define SIZE 6

void displayIdentifyingInformationAndInstructions(void) {
  printf("Author: Dale Reed\n");
  printf("Program: #3, Pentago\n");
  printf("TA: Karla Templar, Tues 10\n");
  printf("Feb 5, 2017\n");
  printf("\n");
  printf("Play the two-player game of Pentago. Be the first to get 5 in a row.\n");
  printf("\n");
  printf("Pentago is played on a 6 by 6 board, divided into four 3 by 3\n");
  printf("quadrants.  There are two players, X and O, who alternate turns.\n");
  printf("The goal of each player is to get five of their pieces in a row,\n");
  printf("either horizontally, vertically, or diagonally.\n");
  printf("\n");
  printf("Players take turns placing one of their pieces into an empty\n");
  printf("space anywhere on the board, then choosing one of the four\n");
  printf("board quadrants to rotate 90 degrees left or right.\n");
  printf("\n");
  printf("If both players get five in a row at the same time, or the\n");
  printf("last move is played with no five in a row, the game is a tie.\n");
  printf("If a player makes five a row by placing a piece, there is no need\n");
  printf("to rotate a quadrant and the player wins immediately.\n");
  printf("\n");
  printf("Play online at:  https://perfect-pentago.net\n");
  printf("Purchase at:     www.mindtwisterusa.com\n");
  printf("\n");
  printf("For each move provide four inputs:\n");
  printf("row (A-F), column (1-6), quadrant (1-4), rotation direction (L or R)\n");
  printf("For instance input of B32R places the next piece at B3 and then\n");
  printf("would rotate quadrant 2 (upper-right) to the right (clockwise).\n");
  printf("\n");
  printf("At any point enter 'x' to exit the program.\n");
}

void displayBoard(char board[SIZE][SIZE]) {
  printf("\n");
  printf("1   1 2 3 4 5 6   2\n");
  printf("    -----------\n");
  for (int row = 0; row < SIZE; row++) {
    printf("%c:  ", 'A' + row);
    for (int col = 0; col < SIZE; col++) {
      printf("%c ", board[row][col]);
    }
    printf(" :%c\n", 'A' + row);
  }
  printf("    -----------\n");
  printf("3   1 2 3 4 5 6   4\n");
  printf("\n");
}

// Reads the next non-blank character; exits quietly when input runs out.
char readChar(void) {
  char c;
  if (scanf(" %c", &c) != 1) {
    exit(0);
  }
  return c;
}

// Rotates one quadrant (1-4) 90 degrees: 'R' clockwise, 'L' counter-clockwise.
void rotateQuadrant(char board[SIZE][SIZE], int quadrant, char direction) {
  int top = (quadrant <= 2) ? 0 : 3;
  int left = (quadrant % 2 == 1) ? 0 : 3;
  char copy[3][3];
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      copy[r][c] = board[top + r][left + c];
    }
  }
  for (int r = 0; r < 3; r++) {
    for (int c = 0; c < 3; c++) {
      if (direction == 'R') {
        board[top + r][left + c] = copy[2 - c][r];
      } else {
        board[top + r][left + c] = copy[c][2 - r];
      }
    }
  }
}

// Returns 1 if piece has five in a row starting at (row, col) going (dr, dc).
int fiveFrom(char board[SIZE][SIZE], char piece, int row, int col, int dr, int dc) {
  for (int i = 0; i < 5; i++) {
    int r = row + i * dr;
    int c = col + i * dc;
    if (r < 0 || r >= SIZE || c < 0 || c >= SIZE || board[r][c] != piece) {
      return 0;
    }
  }
  return 1;
}

// Returns 1 if piece has five in a row anywhere on the board.
int hasFive(char board[SIZE][SIZE], char piece) {
  for (int row = 0; row < SIZE; row++) {
    for (int col = 0; col < SIZE; col++) {
      if (fiveFrom(board, piece, row, col, 0, 1) ||
          fiveFrom(board, piece, row, col, 1, 0) ||
          fiveFrom(board, piece, row, col, 1, 1) ||
          fiveFrom(board, piece, row, col, 1, -1)) {
        return 1;
      }
    }
  }
  return 0;
}

int main(void) {
  char board[SIZE][SIZE];
  char player = 'X';
  int moveNumber = 1;
  char rowChar, colChar, quadChar, dirChar;

  displayIdentifyingInformationAndInstructions();
  for (int row = 0; row < SIZE; row++) {
    for (int col = 0; col < SIZE; col++) {
      board[row][col] = '.';
    }
  }
  displayBoard(board);

  while (1) {
    printf("%d. Enter row, column, quadrant, direction for %c: ", moveNumber, player);
    rowChar = readChar();
    if (rowChar == 'x' || rowChar == 'X') {
      printf("Exiting program...\n");
      exit(0);
    }
    colChar = readChar();
    quadChar = readChar();
    dirChar = readChar();

    rowChar = toupper(rowChar);
    dirChar = toupper(dirChar);
    int row = rowChar - 'A';
    int col = colChar - '1';
    int quadrant = quadChar - '0';

    if (rowChar < 'A' || rowChar > 'F') {
      printf("*** Invalid move row.  Please retry.\n");
      continue;
    }
    if (colChar < '1' || colChar > '6') {
      printf("*** Invalid move column.  Please retry.\n");
      continue;
    }
    if (board[row][col] != '.') {
      printf("*** That board location is already taken.  Please retry.\n");
      continue;
    }
    if (quadrant < 1 || quadrant > 4) {
      printf("*** Selected quadrant is invalid.  Please retry.\n");
      continue;
    }
    if (dirChar != 'L' && dirChar != 'R') {
      printf("*** Quadrant rotation direction is invalid.  Please retry.\n");
      continue;
    }

    board[row][col] = player;
    int xWins, oWins;
    if (hasFive(board, player)) {
      // Five by placing the piece: no rotation needed.
      xWins = (player == 'X');
      oWins = (player == 'O');
    } else {
      rotateQuadrant(board, quadrant, dirChar);
      // Did this move win the game?
      xWins = (player == 'X') && hasFive(board, 'X');
      oWins = (player == 'O') && hasFive(board, 'O');
    }

    if (xWins && oWins) {
      printf("*** Both X and O have won.  Game is a tie.\n");
    } else if (xWins) {
      printf("X has won the game!\n");
    } else if (oWins) {
      printf("O has won the game!\n");
    }
    if (xWins || oWins) {
      displayBoard(board);
      printf("Thanks for playing.  Exiting...\n");
      break;
    }

    displayBoard(board);
    if (player == 'X') {
      player = 'O';
    } else {
      player = 'X';
    }
    moveNumber++;
  }
  return 0;
}
