import { connect } from "@corkboard/sdk";
const live = connect({ board: "b", url: "https://boards.example" });
live.addEventListener("board", (event) => console.log(event.detail.cause));
